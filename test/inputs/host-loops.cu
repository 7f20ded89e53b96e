// Test input for launches inside host loops whose bound is known only at
// run time, as sorting networks and multi-pass drivers write them: the
// merge passes of a bitonic-style sort run for sizes 2048, 4096, ... up to
// the caller's n, and each size for strides size / 2 down to 1024. The
// first iterations are followed one by one, each with its size and stride
// (each of which may be the last), so every analysed launch has its
// stride; the launches of the iterations not followed are said, not swept
// over values the loop never takes (a stride of 3 would have split the
// warp's pairs over two sectors each). Run without arguments, the program
// makes the launches analysed here first (n = 16384), so the H200 records
// (test/hw/inputs/host-loops.json) compare line for line.
#include <cstdlib>
#include <cuda_runtime.h>

// One compare-and-swap pass: thread g owns the pair (pos, pos + stride),
// pos = 2g - (g mod stride). For stride >= 32 a warp's 32 threads read 32
// consecutive words twice: 4 sectors per request, the ideal.
__global__ void mergePass(unsigned *keys, unsigned stride) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned pos = 2 * g - (g & (stride - 1));
  unsigned a = keys[pos];
  unsigned b = keys[pos + stride];
  if (a > b) {
    keys[pos] = b;
    keys[pos + stride] = a;
  }
}

// The sort's global passes; n is the caller's, read at run time.
void mergePasses(unsigned *keys, unsigned n) {
  for (unsigned size = 2048; size <= n; size <<= 1)
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      if (stride < 1024)
        break;
      mergePass<<<n / 512, 256>>>(keys, stride);
    }
}

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? static_cast<unsigned>(atoi(argv[1])) : 16384;
  unsigned *keys;
  cudaMalloc(&keys, n * sizeof(unsigned));
  cudaMemset(keys, 0, n * sizeof(unsigned));
  mergePasses(keys, n);
  cudaDeviceSynchronize();
  cudaFree(keys);
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last: the H200 records of this input are keyed by the line
// numbers above. No CHECK line: every pass the host code makes is coalesced,
// and the checks must print nothing.
// RUN: %check_warpcheck %s 'cuda-*' %t
