// Test input for shared-memory exchanges of one word, as convergence flags
// are cleared in iterative solvers (every lane that has not converged
// writes 0 to a block-wide flag). An exchange is served lane by lane: 32
// lanes exchanging their own values into one word take 32 wavefronts
// (shared-atomics.cu). Here the lanes exchange one constant, with the old
// value ignored, under no condition, under a condition half the lanes
// take, and with the old value used.
#include <cuda_runtime.h>

__global__ void clearFlag(unsigned *out) {
  __shared__ unsigned allConverged;
  unsigned tid = threadIdx.x;
  if (tid == 0)
    allConverged = 1;
  __syncthreads();
  atomicExch(&allConverged, 0u);
  __syncthreads();
  if (tid % 2 == 1)
    atomicExch(&allConverged, 0u);
  __syncthreads();
  atomicExch(&allConverged, tid);
  __syncthreads();
  unsigned old = atomicExch(&allConverged, 0u);
  __syncthreads();
  out[blockIdx.x * blockDim.x + tid] = allConverged + old;
}

int main() {
  unsigned *out;
  cudaMalloc(&out, 64 * 128 * sizeof(unsigned));
  clearFlag<<<64, 128>>>(out);
  cudaDeviceSynchronize();
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last: the H100 records of this input are keyed by the line
// numbers above.
// RUN: %check_warpcheck %s cuda-shared-bank-conflict %t
// Every exchange is served lane by lane, one constant or not: the H100
// measures 32, 16, 32 and 32 wavefronts per request on lines 16, 19, 21
// and 23, as predicted (a solver's flag exchange that measures 1 is one
// whose data lets a single lane through).
// CHECK-MESSAGES: :16:3: warning: 32-way bank conflict atomically updating 'atomicExch(&allConverged, 0u)': lanes 0-31 update bank 0 one after another, lanes naming one word included (32 wavefronts per request, ideal 1) with block (128, 1, 1) from the launch at shared-uniform-exchange.cu:31 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :19:5: warning: 16-way bank conflict atomically updating 'atomicExch(&allConverged, 0u)': lanes 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31 update bank 0 one after another, lanes naming one word included (16 wavefronts per request, ideal 1) with block (128, 1, 1) from the launch at shared-uniform-exchange.cu:31 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :21:3: warning: 32-way bank conflict atomically updating 'atomicExch(&allConverged, tid)': lanes 0-31 update bank 0 one after another, lanes naming one word included (32 wavefronts per request, ideal 1) with block (128, 1, 1) from the launch at shared-uniform-exchange.cu:31 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :23:18: warning: 32-way bank conflict atomically updating 'atomicExch(&allConverged, 0u)': lanes 0-31 update bank 0 one after another, lanes naming one word included (32 wavefronts per request, ideal 1) with block (128, 1, 1) from the launch at shared-uniform-exchange.cu:31 [cuda-shared-bank-conflict]
