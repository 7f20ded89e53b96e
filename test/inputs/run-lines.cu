// Test input for the RUN lines themselves (test/check_warpcheck.py): each
// RUN line at the end runs this file with other check suffixes, so that
// every mode of %check_warpcheck is exercised on one small program: the
// warnings and their notes (CHECK-NOTES), warnings and fix-its
// (CHECK-MESSAGES, CHECK-FIXES), a check with nothing to say (no
// diagnostics), and expectations that are wrong on purpose, which must fail.
#include <cuda_runtime.h>

// A 32x32 tile read by column: lane L reads word 32 L, bank 0 for every
// lane: 32 wavefronts for one. Rows of 33 words put lane L in bank L.
__global__ void columnRead(float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-NOTES-NOTES: :[[@LINE-1]]:41: warning: 32-way bank conflict reading 'tile[threadIdx.x][threadIdx.y]': lanes 0-31 all hit bank 0 (32 wavefronts per request, ideal 1) with block (32, 32, 1) from the launch at run-lines.cu:{{[0-9]+}} [cuda-shared-bank-conflict]
  // CHECK-NOTES-NOTES: :[[@LINE-5]]:20: note: padding the last dimension of 'tile' to 33 removes the conflict and makes no access to it worse (+128 bytes, 3.1%)
  // CHECK-MESSAGES-MESSAGES: :[[@LINE-3]]:41: warning: 32-way bank conflict {{.*}} [cuda-shared-bank-conflict]
  // CHECK-FIXES-FIXES: __shared__ float tile[32][33];
  // The same warning with the wrong number of ways: must fail.
  // CHECK-MESSAGES-WRONG: :[[@LINE-7]]:41: warning: 16-way bank conflict {{.*}} [cuda-shared-bank-conflict]
  // The warning without its note, where every note must be matched: must fail.
  // CHECK-NOTES-NONOTE: :[[@LINE-9]]:41: warning: 32-way bank conflict {{.*}} [cuda-shared-bank-conflict]
}

// Consecutive lanes, consecutive floats: 4 sectors per request, the ideal.
__global__ void rowCopy(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 20);
  cudaMalloc(&out, 1 << 20);
  columnRead<<<1, dim3(32, 32)>>>(out);
  rowCopy<<<64, 256>>>(in, out);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return 0;
}

// RUN lines last, as in the other inputs (there the H200 records are keyed
// by the line numbers above them).
// RUN: %check_warpcheck -check-suffix=NOTES %s cuda-shared-bank-conflict %t.notes
// RUN: %check_warpcheck -check-suffixes=MESSAGES,FIXES %s cuda-shared-bank-conflict %t.fixes
// No CHECK-*-CLEAN line: the check must print nothing (both launches are
// coalesced).
// RUN: %check_warpcheck -check-suffix=CLEAN %s cuda-uncoalesced-global-access %t.clean
// Each door must fail on a wrong expectation, on a note left unmatched
// under CHECK-NOTES, and on a warning where none is expected.
// RUN: not %check_warpcheck -door=plugin -check-suffix=WRONG %s cuda-shared-bank-conflict %t.wrong
// RUN: not %check_warpcheck -door=binary -check-suffix=WRONG %s cuda-shared-bank-conflict %t.wrong
// RUN: not %check_warpcheck -door=plugin -check-suffix=NONOTE %s cuda-shared-bank-conflict %t.nonote
// RUN: not %check_warpcheck -door=binary -check-suffix=NONOTE %s cuda-shared-bank-conflict %t.nonote
// RUN: not %check_warpcheck -door=plugin -check-suffix=ABSENT %s cuda-shared-bank-conflict %t.absent
// RUN: not %check_warpcheck -door=binary -check-suffix=ABSENT %s cuda-shared-bank-conflict %t.absent
