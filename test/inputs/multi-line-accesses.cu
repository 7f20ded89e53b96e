// Test input for accesses written over several lines: nvcc's line table
// gives the load or store the line where its index expression ends (its
// last token), not the line the access starts on, nor that of a `]` alone
// on the next line, nor that of the operator the line breaks after
// (nvdisasm -gi of nvcc 13 -O3 -arch=sm_90 -lineinfo; Nsight Compute
// counts each instruction on its line). SHOC sort's `offsets[threadIdx.x *
// totalBlocks +` / `blockId]` and SGEMM_CUDA's `reinterpret_cast<float4 *>(`
// / `&C[...])[0]` are measured on their second lines.
#include <cuda_runtime.h>

// Lanes 32 floats apart: a sector each, 32 per request; read on line 15.
__global__ void splitIndex(const float *in, float *out, int k) {
  int i = threadIdx.x;
  float v = in[i * 32 +
               k];
  out[i] = v;
}

// The `]` alone on line 24: read on line 23, where the index ends.
__global__ void bracketAlone(const float *in, float *out, int k) {
  int i = threadIdx.x;
  float v = in[i * 32 +
               k
              ];
  out[i] = v;
}

// The line breaks before `[`: read on line 32.
__global__ void baseAlone(const float *in, float *out) {
  int i = threadIdx.x;
  float v = in
      [i * 32];
  out[i] = v;
}

// The line breaks before `+`: read on line 40, where `+ k` is.
__global__ void operatorFirst(const float *in, float *out, int k) {
  int i = threadIdx.x;
  float v = in[i * 32
               + k];
  out[i] = v;
}

// A store: on line 48.
__global__ void storeSplit(const float *in, float *out, int k) {
  int i = threadIdx.x;
  out[i * 32 +
      k] = in[i];
}

// Read and written back: both on line 55.
__global__ void compoundSplit(const float *in, float *out, int k) {
  int i = threadIdx.x;
  out[i * 32 +
      k] += in[i];
}

// A float4 through a cast pointer, its `[0]` on line 63: one LDG.E.128
// there, lanes 128 bytes apart (a sector each, 32 per request, ideal 16).
__global__ void castThenIndex(const float *in, float *out) {
  int i = threadIdx.x;
  float4 v = reinterpret_cast<const float4 *>(
      &in[i * 32])[0];
  out[i] = v.x + v.y + v.z + v.w;
}

// Consecutive lanes: 4 sectors per request, read on line 71.
__global__ void coalescedSplit(const float *in, float *out, int k) {
  int i = threadIdx.x;
  float v = in[i +
               k];
  out[i] = v;
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 64 * 32 * sizeof(float));
  cudaMalloc(&out, 64 * 32 * sizeof(float));
  cudaMemset(in, 0, 64 * 32 * sizeof(float));
  cudaMemset(out, 0, 64 * 32 * sizeof(float));
  splitIndex<<<2, 32>>>(in, out, 0);
  bracketAlone<<<2, 32>>>(in, out, 0);
  baseAlone<<<2, 32>>>(in, out);
  operatorFirst<<<2, 32>>>(in, out, 0);
  storeSplit<<<2, 32>>>(in, out, 0);
  compoundSplit<<<2, 32>>>(in, out, 0);
  castThenIndex<<<2, 32>>>(in, out);
  coalescedSplit<<<2, 32>>>(in, out, 0);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// Each strided access where it starts, with the line its instruction is
// made on.
// CHECK-MESSAGES: :14:13: warning: global load 'in[i * 32 + k]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at multi-line-accesses.cu:81 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :14:13: note: the compiler emits this read at line 15 (LDG.E, 32 sectors per request)
// CHECK-MESSAGES: :22:13: warning: global load 'in[i * 32 + k]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at multi-line-accesses.cu:82 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :22:13: note: the compiler emits this read at line 23 (LDG.E, 32 sectors per request)
// CHECK-MESSAGES: :31:13: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at multi-line-accesses.cu:83 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :31:13: note: the compiler emits this read at line 32 (LDG.E, 32 sectors per request)
// CHECK-MESSAGES: :39:13: warning: global load 'in[i * 32 + k]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at multi-line-accesses.cu:84 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :39:13: note: the compiler emits this read at line 40 (LDG.E, 32 sectors per request)
// CHECK-MESSAGES: :47:3: warning: global store 'out[i * 32 + k]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at multi-line-accesses.cu:85 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :47:3: note: the compiler emits this write at line 48 (STG.E, 32 sectors per request)
// CHECK-MESSAGES: :54:3: warning: global load 'out[i * 32 + k]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at multi-line-accesses.cu:86 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :54:3: note: the compiler emits this read at line 55 (LDG.E, 32 sectors per request)
// CHECK-MESSAGES: :54:3: warning: global store 'out[i * 32 + k]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at multi-line-accesses.cu:86 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :54:3: note: the compiler emits this write at line 55 (STG.E, 32 sectors per request)

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// line is last: the H200 records of this input are keyed by the line
// numbers above.
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access,cuda-shared-bank-conflict %t
