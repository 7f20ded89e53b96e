// What the simulation budget cuts is said where findings are read, in the
// text report and in clang-tidy's messages, not only in the JSON report's
// limitations (issue "Reliability").

// One iteration of this loop costs more than a warp's whole step budget
// (4,000,000 lane-steps: 16,384 statements for 32 lanes): the warp stops
// inside it, and the strided store after the loop is never simulated, so
// no check can report it. The kernel says so, once, with the launch.
#define STEP(i) acc = acc * 3.0f + (i);
#define STEP4(i) STEP(i) STEP(i + 1) STEP(i + 2) STEP(i + 3)
#define STEP16(i) STEP4(i) STEP4(i + 4) STEP4(i + 8) STEP4(i + 12)
#define STEP64(i) STEP16(i) STEP16(i + 16) STEP16(i + 32) STEP16(i + 48)
#define STEP256(i) STEP64(i) STEP64(i + 64) STEP64(i + 128) STEP64(i + 192)
#define STEP1024(i) STEP256(i) STEP256(i + 256) STEP256(i + 512) STEP256(i + 768)
#define STEP4096(i) STEP1024(i) STEP1024(i + 1024) STEP1024(i + 2048) STEP1024(i + 3072)
#define STEP16384(i) STEP4096(i) STEP4096(i + 4096) STEP4096(i + 8192) STEP4096(i + 12288)
__global__ void burn(const float *in, float *out, int n) {
  float acc = in[threadIdx.x];
  for (int i = 0; i < n; ++i) {
    STEP16384(0)
  }
  out[threadIdx.x * 32] = acc;
}

// Loops nested three deep, each cut short by the budget: the launch's
// budget allows fewer warps than the 128 otherwise sampled, and the numbers
// of the store's finding average those; a note of the finding says how
// many (the count follows the interpreter's step costs, hence the pattern).
__global__ void heavy(const float *in, float *out, int B, int T, int C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < T; ++t)
      for (int c = 0; c < C; c += 32)
        acc += in[(b * T + t) * C + c + threadIdx.x % 32];
  out[i * 32] = acc;
}

int main() {
  burn<<<64, 128>>>(nullptr, nullptr, 4);
  heavy<<<1024, 256>>>(nullptr, nullptr, 64, 64, 1024);
}

// RUN: %check_warpcheck %s cuda-uncoalesced-global-access %t
// RUN: %check_warpcheck -door=binary %s cuda-uncoalesced-global-access %t.no-cuda -- --no-cuda
// CHECK-NOTES: :17:17: warning: the simulation of kernel 'burn' stopped at its step budget with block (128, 1, 1) from the launch at simulation-budget-cuts.cu:40: accesses after that point were not analysed [cuda-uncoalesced-global-access]
// CHECK-NOTES: :36:3: warning: global store 'out[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (256, 1, 1) from the launch at simulation-budget-cuts.cu:41 [cuda-uncoalesced-global-access]
// CHECK-NOTES: :36:3: note: 'i' (which differs between adjacent lanes) is multiplied by '32': adjacent lanes are 128 bytes apart; make threadIdx.x the fastest-varying index of this access, or stage the data through shared memory (a tiled transpose) so that global memory is read along rows
// CHECK-NOTES: :36:3: note: the simulation budget of the launch allowed {{[0-9]+}} of the 128 warps otherwise sampled; the numbers average those
