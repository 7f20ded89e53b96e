// Test input for kernel arguments a command-line option sets, with a
// default when the option is not given: the numbers stated are those of
// the program run without arguments, the range over other values beside
// them. Three ways real programs write the default, as seen in the wild:
// a flag found by scanning argv (a sample's `-width=1024`), a `?:` on argc,
// and a helper that returns the default when argc is short.
//
// copyRows copies a width x 64 matrix of floats with (32, 8) blocks. Its
// default width, 1024, keeps every row on 32-byte sectors: 4 sectors per
// request. An odd width (given with -width=) puts rows 4 bytes off. The
// grid follows -rows=: the launch is analysed once per way of that option,
// and where the option is given (a way the run without arguments never
// goes), the width is no default either: that launch is reported at the
// worst width.
//
// scaleStrided scales every stride-th float: 8 without a second argument,
// 32 bytes apart, one sector per lane (32 per request where 4 would do).
//
// padRows writes a tile of 32 rows of 32 floats through a pitch: 33 without
// a third argument (each row one bank further), conflict-free; a pitch of
// 32 would put the 32 lanes' words in one bank.
#include <cuda_runtime.h>

#include <cstdlib>
#include <cstring>

__global__ void copyRows(float *out, const float *in, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width)
    out[y * width + x] = in[y * width + x];
}

__global__ void scaleStrided(float *data, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i * stride] *= 2.0f;
}

__global__ void padRows(float *out, int pitch) {
  __shared__ float tile[32 * 33];
  unsigned lane = threadIdx.x;
  for (unsigned row = 0; row < 32; ++row)
    tile[lane * pitch + row] = static_cast<float>(row);
  __syncthreads();
  out[blockIdx.x * blockDim.x + lane] = tile[lane];
}

// "-name=value" anywhere on the command line.
static bool hasFlag(int argc, char **argv, const char *name) {
  for (int i = 1; i < argc; ++i)
    if (argv[i][0] == '-' && std::strncmp(argv[i] + 1, name, std::strlen(name)) == 0)
      return true;
  return false;
}

static int flagValue(int argc, char **argv, const char *name) {
  for (int i = 1; i < argc; ++i)
    if (argv[i][0] == '-' && std::strncmp(argv[i] + 1, name, std::strlen(name)) == 0)
      return std::atoi(argv[i] + 2 + std::strlen(name));
  return 0;
}

static int pitchFrom(int argc, char **argv) {
  if (argc > 3)
    return std::atoi(argv[3]);
  return 33;
}

int main(int argc, char **argv) {
  int width = 1024;
  if (hasFlag(argc, argv, "width"))
    width = flagValue(argc, argv, "width");
  int rows = 64;
  if (hasFlag(argc, argv, "rows"))
    rows = flagValue(argc, argv, "rows");
  int stride = argc > 2 ? std::atoi(argv[2]) : 8;
  int pitch = pitchFrom(argc, argv);

  float *in, *out, *data;
  cudaMalloc(&in, 2048 * 64 * sizeof(float));
  cudaMalloc(&out, 2048 * 64 * sizeof(float));
  cudaMalloc(&data, 32 * 256 * 64 * sizeof(float));
  cudaMemset(in, 0, 2048 * 64 * sizeof(float));
  cudaMemset(data, 0, 32 * 256 * 64 * sizeof(float));

  dim3 block(32, 8);
  dim3 grid(2048 / 32, rows / 8);
  copyRows<<<grid, block>>>(out, in, width);
  scaleStrided<<<64, 256>>>(data, stride);
  padRows<<<4, 32>>>(out, pitch);
  cudaDeviceSynchronize();
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last: the H100 records of this input are keyed by the line
// numbers above.
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access,cuda-shared-bank-conflict %t
// Without arguments the width is 1024 (4 sectors per request, no finding) and
// the stride 8 (32 sectors per request, as measured); with -rows= given, the
// width is any value: the worst widths' 4.88 sectors.
// CHECK-MESSAGES: :31:5: warning: global store 'out[y * width + x]' is misaligned: it touches 4.88 sectors per warp request (ideal 4, 82.1% efficiency; 1 to 4.5 otherwise) for 22 of the 47 values of 'width' tried (such as 33 and 63) with block (32, 8, 1) from the launch at command-line-defaults.cu:88 (the branch at command-line-defaults.cu:74 taken) [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :31:26: warning: global load 'in[y * width + x]' is misaligned: it touches 4.88 sectors per warp request (ideal 4, 82.1% efficiency; 1 to 4.5 otherwise) for 22 of the 47 values of 'width' tried (such as 33 and 63) with block (32, 8, 1) from the launch at command-line-defaults.cu:88 (the branch at command-line-defaults.cu:74 taken) [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :36:3: warning: global load 'data[i * stride]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency; 4 to 28 otherwise) with 'stride' = 8 (a run without command-line arguments) with block (256, 1, 1) from the launch at command-line-defaults.cu:89 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :36:3: warning: global store 'data[i * stride]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency; 4 to 28 otherwise) with 'stride' = 8 (a run without command-line arguments) with block (256, 1, 1) from the launch at command-line-defaults.cu:89 [cuda-uncoalesced-global-access]
