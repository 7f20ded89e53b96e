// Test input for kernels handed their own block size as an argument, as
// real drivers write them (cuda-samples' dwtHaar1D passes `block_size.x` as
// 'bdim'; scans pass the thread count they launch with): the block is read
// at run time, so its shape is assumed (the default 256 threads), and the
// parameter is that shape's extent too, not an unknown swept on its own (a
// block of 256 threads with bdim = 65535 is a launch no program makes). Run
// without arguments the program launches 256 threads, so the H200 records
// (test/hw/inputs/block-extent-arguments.json) compare line for line.
#include <cstdlib>
#include <cuda_runtime.h>

#define ROWS 4096

// A block of bdim threads stages bdim values column by column into a tile
// of bdim / 32 rows: lane l of a warp writes word l * rows + warp, so lanes
// 4 apart share a bank (bdim = 256: 8 rows, an 8-way conflict).
__global__ void stageColumns(const float *in, float *out, int bdim) {
  extern __shared__ float tile[];
  int rows = bdim / 32;
  int t = threadIdx.x;
  tile[(t % 32) * rows + t / 32] = in[blockIdx.x * bdim + t];
  __syncthreads();
  out[blockIdx.x * bdim + t] = tile[t];
}

// Each thread reads one element of a column of a row-major matrix n / 32
// floats wide (n = 256: 32 bytes between lanes, a sector each).
__global__ void columnGather(const float *in, float *out, int n) {
  int t = threadIdx.x;
  out[blockIdx.x * n + t] = in[t * (n / 32) + blockIdx.x % (n / 32)];
}

// The extent along y, passed from a dim3 built at the launch.
__global__ void rowsOfTile(float *out, int width, int height) {
  out[(threadIdx.x * height + threadIdx.y) % (width * height)] = 1.0f;
}

int main(int argc, char **argv) {
  dim3 block;
  block.x = atoi(argc > 1 ? argv[1] : "256");
  float *in, *out;
  cudaMalloc(&in, ROWS * 256 * sizeof(float));
  cudaMalloc(&out, ROWS * 256 * sizeof(float));
  stageColumns<<<ROWS, block, block.x * sizeof(float)>>>(in, out, block.x);
  int n = atoi(argc > 2 ? argv[2] : "256");
  columnGather<<<ROWS, n>>>(in, out, n);
  int height = atoi(argc > 3 ? argv[3] : "8");
  rowsOfTile<<<ROWS, dim3(32, height)>>>(out, 32, height);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return 0;
}

// The parameter follows the assumed block: bdim = 256 gives 8 rows, n = 256
// a 32-byte stride, height = 8 the y extent of (32, 8, 1).
// CHECK-MESSAGES: :21:3: warning: 8-way bank conflict writing 'tile[(t % 32) * rows + t / 32]': lanes 0, 4, 8, 12, 16, 20, 24, 28 hit bank 0 with different words (8 wavefronts per request, ideal 1) with block (256, 1, 1) from the default block [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :21:3: note: assumed: the block shape (256, 1, 1) is assumed from the default block; with it 'bdim' = 256 (the launches pass the block's extent along x)
// CHECK-MESSAGES: :30:29: warning: global load 'in[t * (n / 32) + blockIdx.x % (n / 32)]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (256, 1, 1) from the default block [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :30:29: note: assumed: the block shape (256, 1, 1) is assumed from the default block; with it 'n' = 256 (the launches pass the block's extent along x)
// CHECK-MESSAGES: :35:3: warning: global store 'out[(threadIdx.x * height + threadIdx.y) % (width * height)]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 8, 1) from the kernel's code (blockDim.x = 32 at the launch at block-extent-arguments.cu:48, the default block's 256 threads spread over threadIdx.y) [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :35:3: note: assumed: the block shape (32, 8, 1) is assumed from the kernel's code (blockDim.x = 32 at the launch at block-extent-arguments.cu:48, the default block's 256 threads spread over threadIdx.y); with it 'height' = 8 (the launches pass the block's extent along y)

// RUN lines last: the H200 records are keyed by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-*' %t

// The sizes from the command line are read as `atoi(argc > 1 ? argv[1] :
// "16")`, the same values as `argc > 1 ? atoi(argv[1]) : 16`, written so
// that the host evaluation cannot tell them: it would analyse that form's
// default as a launch of its own (the condition false), and this input is
// about launches whose shape is not known.
