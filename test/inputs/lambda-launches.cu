// Launches made inside lambdas, as llm.c's dev kernels make them: a generic
// lambda whose parameter carries the block size as a type
// (std::integral_constant), called by a dispatcher template that switches
// on the size, and a plain lambda called where it is written. A lambda's
// body sees the variables of the function it is written in (the row length
// 'cols', two frames below the call of the generic lambda), so each launch
// is known in full: rows of 1001 floats, 4004 bytes apart, so that a row
// starts 32-byte aligned on every eighth row only.
#include <cuda_runtime.h>

#include <cstdio>
#include <type_traits>

template <int Block> __global__ void rowScale(const float *in, float *out, int cols) {
  const float *row = in + blockIdx.x * cols;
  for (int c = threadIdx.x; c < cols; c += Block)
    out[blockIdx.x * cols + c] = 2.0f * row[c];
}

__global__ void rowShift(const float *in, float *out, int cols) {
  int r = blockIdx.x;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    out[r * cols + c] = in[r * cols + c] + 1.0f;
}

template <class Launcher> void dispatchBlock(Launcher &&launch, int block) {
  switch (block) {
  case 64:
    return launch(std::integral_constant<int, 64>{});
  case 256:
    return launch(std::integral_constant<int, 256>{});
  default:
    std::printf("unsupported block size %d\n", block);
  }
}

void launchScale(const float *in, float *out, int rows, int cols, int block) {
  auto launch = [&](auto size) {
    rowScale<size.value><<<rows, size.value>>>(in, out, cols);
  };
  dispatchBlock(launch, block);
}

int main() {
  const int rows = 512, cols = 1001;
  float *in, *out;
  cudaMalloc(&in, rows * cols * sizeof(float));
  cudaMalloc(&out, rows * cols * sizeof(float));
  cudaMemset(in, 0, rows * cols * sizeof(float));
  launchScale(in, out, rows, cols, 256);
  launchScale(in, out, rows, cols, 64);
  auto shift = [=](int block) { rowShift<<<rows, block>>>(in, out, cols); };
  shift(128);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(err));
  cudaFree(in);
  cudaFree(out);
  return err == cudaSuccess ? 0 : 1;
}

// Every launch is known, so every number is exact: a row starts 4 bytes
// further past a sector boundary than the one before (4004 = 125 * 32 + 4),
// so a warp's 128 contiguous bytes touch 5 sectors on seven rows of eight,
// 4 on the eighth; the row's last, partial request touches fewer (the
// ideal of 3.94). Were the lambdas not followed, the blocks would be the
// default 256 threads and 'cols' swept over values the program never takes.
// CHECK-MESSAGES: :17:5: warning: global store 'out[blockIdx.x * cols + c]' is misaligned: it touches 4.79 sectors per warp request (ideal 3.94, 82.2% efficiency) in 'rowScale<64>' with block (64, 1, 1) from the launch at lambda-launches.cu:39 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :17:5: warning: global store 'out[blockIdx.x * cols + c]' is misaligned: it touches 4.79 sectors per warp request (ideal 3.94, 82.3% efficiency) in 'rowScale<256>' with block (256, 1, 1) from the launch at lambda-launches.cu:39 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :17:41: warning: global load 'row[c]' is misaligned: it touches 4.79 sectors per warp request (ideal 3.94, 82.2% efficiency) in 'rowScale<64>' with block (64, 1, 1) from the launch at lambda-launches.cu:39 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :17:41: warning: global load 'row[c]' is misaligned: it touches 4.79 sectors per warp request (ideal 3.94, 82.3% efficiency) in 'rowScale<256>' with block (256, 1, 1) from the launch at lambda-launches.cu:39 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :23:5: warning: global store 'out[r * cols + c]' is misaligned: it touches 4.79 sectors per warp request (ideal 3.94, 82.3% efficiency) with block (128, 1, 1) from the launch at lambda-launches.cu:52 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :23:25: warning: global load 'in[r * cols + c]' is misaligned: it touches 4.79 sectors per warp request (ideal 3.94, 82.3% efficiency) with block (128, 1, 1) from the launch at lambda-launches.cu:52 [cuda-uncoalesced-global-access]

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the hardware
// records of this input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access %t
