// Test input for global atomics: which ones nvcc aggregates per warp (one
// lane's request, 1 sector: no finding) and which ones it leaves to the
// memory system, lane after lane on a shared address (a finding). The
// census of the SASS nvcc 13.0 emits for sm_90 (test/hw/atomics/
// sass_census.csv) decides; each kernel is launched from main() so that the
// program also runs on a GPU and test/hw/ can hold what the H200 measured.
#include <cuda_runtime.h>

// A counter every lane adds 1 to: VOTEU, UFLO, POPC and one REDG.
__global__ void countAll(int *count) { atomicAdd(&count[0], 1); }

// One counter per block, a per-lane value: REDUX.SUM, one REDG.
__global__ void sumPerBlock(int *sums) { atomicAdd(&sums[blockIdx.x], (int)threadIdx.x); }

// Counting the elements that pass a test: the lanes that take the branch
// are found by the vote, whichever they are.
__global__ void countMatches(const float *x, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] > 0.5f)
    atomicAdd(count, 1);
}

// A ticket per lane: the old value is used, the operand uniform; each lane's
// ticket is rebuilt from the leader's (SHFL) and its rank (POPC).
__global__ void tickets(int *next, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = atomicAdd(next, 1);
}

// A maximum whose old value is ignored: REDUX.MAX, one REDG.
__global__ void blockMax(int *m) { atomicMax(&m[blockIdx.x], (int)threadIdx.x); }

// Through a __device__ function: its parameter is what the call passes.
__device__ void bump(unsigned long long *counter) { atomicAdd(counter, 1ull); }
__global__ void viaHelper(unsigned long long *counters) { bump(&counters[blockIdx.x]); }

// Through a reference: the element the call binds.
__device__ void increment(int &counter) { atomicAdd(&counter, 1); }
__global__ void viaReference(int *counts) { increment(counts[blockIdx.x]); }

// Odd lanes only, a uniform operand.
__global__ void oddLanes(unsigned *c, unsigned k) {
  if (threadIdx.x & 1)
    atomicAdd(c, k);
}

// Offsets for variable-length records: used old values of per-lane sizes;
// aggregated (a scan) because every warp of the launch is full.
__global__ void allocate(int *next, const int *len, int *offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  offset[i] = atomicAdd(next, len[i]);
}

// Float atomics are never aggregated: 32 lanes on one word, 32 sectors.
__global__ void sumFloats(const float *x, float *sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(sum, x[i]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: global atomic 'atomicAdd(sum, x[i])' touches 32 sectors per warp request (ideal 1, 3.1% efficiency) with block (128, 1, 1) from the launch at atomics.cu:{{[0-9]+}} [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: up to 32 lanes update the same address, one after another (the compiler does not combine them: floating-point atomics are never combined); combine the warp's values first (__reduce_add_sync, or __shfl_down_sync steps) and let one lane update memory
}

// A maximum whose old value is used: each lane its own ATOMG.
__global__ void lastMax(int *m, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = atomicMax(m, (int)threadIdx.x);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: global atomic 'atomicMax(m, (int)threadIdx.x)' touches 32 sectors per warp request (ideal 1, 3.1% efficiency)
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: up to 32 lanes update the same address, one after another (the compiler does not combine them: a min, max, and, or or xor whose old value is used is not combined)
}

// 64-bit adds of per-lane values are not aggregated; of a constant they are.
__global__ void total64(unsigned long long *total) {
  atomicAdd(total, 1ull);
  atomicAdd(total + 1, (unsigned long long)threadIdx.x);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: global atomic 'atomicAdd(total + 1, (unsigned long long)threadIdx.x)' touches 32 sectors per warp request (ideal 1, 3.1% efficiency)
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: up to 32 lanes update the same address, one after another (the compiler does not combine them: of 64-bit atomics only an add of a warp-uniform operand is combined)
}

// One counter per warp: the same address for a warp's lanes at run time,
// but threadIdx.x / 32 is nothing the compiler can prove uniform.
__global__ void perWarp(int *counts) {
  atomicAdd(&counts[threadIdx.x / 32], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: global atomic 'atomicAdd(&counts[threadIdx.x / 32], 1)' touches 32 sectors per warp request (ideal 1, 3.1% efficiency)
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: up to 32 lanes update the same address, one after another (the compiler does not combine them: the compiler cannot prove that the lanes name one address)
}

// An index set under a divergent branch: two addresses, 16 lanes each.
__global__ void halves(int *c) {
  int idx = 0;
  if (threadIdx.x % 32 < 16)
    idx = 1;
  atomicAdd(&c[idx], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: global atomic 'atomicAdd(&c[idx], 1)' touches 16 sectors per warp request (ideal 1, 6.2% efficiency)
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: up to 16 lanes update the same address, one after another (the compiler does not combine them: the compiler cannot prove that the lanes name one address)
}

// Compare-and-swap and exchange are never combined.
__global__ void exchanges(int *lock, int *flag, int *out) {
  out[threadIdx.x] = atomicCAS(lock, 0, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: global atomic 'atomicCAS(lock, 0, 1)' touches 32 sectors per warp request (ideal 1, 3.1% efficiency)
  // CHECK-MESSAGES: :[[@LINE-2]]:22: note: up to 32 lanes update the same address, one after another (the compiler does not combine them: exchange, compare-and-swap, inc and dec are never combined)
  atomicExch(flag, (int)threadIdx.x);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: global atomic 'atomicExch(flag, (int)threadIdx.x)' touches 32 sectors per warp request (ideal 1, 3.1% efficiency)
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: up to 32 lanes update the same address
}

// Lanes on distinct words: nothing to combine, and nothing wasted.
__global__ void perLane(int *c) { atomicAdd(&c[blockIdx.x * blockDim.x + threadIdx.x], 1); }

int main() {
  int *ints, *out;
  unsigned *uints;
  unsigned long long *longs;
  float *x, *sum;
  cudaMalloc(&ints, 1 << 20);
  cudaMalloc(&out, 1 << 20);
  cudaMalloc(&uints, 1 << 16);
  cudaMalloc(&longs, 1 << 16);
  cudaMalloc(&x, 1 << 20);
  cudaMalloc(&sum, 1 << 16);
  cudaMemset(ints, 0, 1 << 20);
  cudaMemset(x, 0, 1 << 20);
  countAll<<<4, 128>>>(ints);
  sumPerBlock<<<4, 128>>>(ints);
  countMatches<<<4, 128>>>(x, ints, 500);
  tickets<<<4, 128>>>(ints, out);
  blockMax<<<4, 128>>>(ints);
  viaHelper<<<4, 128>>>(longs);
  viaReference<<<4, 128>>>(ints + 64);
  oddLanes<<<4, 128>>>(uints, 3u);
  allocate<<<4, 128>>>(ints, ints + 1024, out);
  sumFloats<<<4, 128>>>(x, sum);
  lastMax<<<4, 128>>>(ints, out);
  total64<<<4, 128>>>(longs);
  perWarp<<<4, 128>>>(ints);
  halves<<<4, 128>>>(ints);
  exchanges<<<1, 128>>>(ints + 4096, ints + 4100, out);
  perLane<<<4, 128>>>(ints);
  cudaDeviceSynchronize();
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-*' %t
