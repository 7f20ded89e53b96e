// Test input for gathers and scatters whose address is computed from data
// read at run time, as sparse matrix codes, graph traversals and sorts
// write them. No sector count of theirs is claimed (they are `unknown` in
// the JSON): how many sectors `x[col[j]]` touches depends on the column
// indices. With ReportDataDependent, cuda-uncoalesced-global-access says
// which read the address comes from, so that the user can judge the data;
// the accesses whose addresses are known are reported as always.
#include <cuda_runtime.h>

// Sparse matrix times vector, one row per thread (CSR, scalar kernel): the
// row's range is read from rowStart, each column index from col.
__global__ void csrRowPerThread(const int *rowStart, const int *col, const float *val,
                                const float *x, float *y, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float sum = 0.0f;
  for (int j = rowStart[r]; j < rowStart[r + 1]; ++j)
    sum += val[j] * x[col[j]];
  y[r] = sum;
}

// A permutation applied through a local index: out[perm[i]] = in[i].
__global__ void scatterByPermutation(const int *perm, const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int to = perm[i];
    out[to] = in[i];
  }
}

int main() {
  const int rows = 4096, nnz = 4 * rows;
  int *rowStart, *col, *perm;
  float *val, *x, *y;
  cudaMalloc(&rowStart, (rows + 1) * sizeof(int));
  cudaMalloc(&col, nnz * sizeof(int));
  cudaMalloc(&perm, rows * sizeof(int));
  cudaMalloc(&val, nnz * sizeof(float));
  cudaMalloc(&x, rows * sizeof(float));
  cudaMalloc(&y, rows * sizeof(float));
  csrRowPerThread<<<rows / 128, 128>>>(rowStart, col, val, x, y, rows);
  scatterByPermutation<<<rows / 128, 128>>>(perm, x, y, rows);
  cudaDeviceSynchronize();
  return 0;
}

// RUN lines last, as in the other inputs. Without the option, nothing is
// reported on these accesses (their numbers are unknown); with it, each
// gather and scatter says where its address comes from.
// RUN: %check_warpcheck -check-suffix=DEFAULT %s cuda-uncoalesced-global-access %t.default
// RUN: %check_warpcheck -check-suffix=DATA %s cuda-uncoalesced-global-access %t.data -- --config=cuda-uncoalesced-global-access.ReportDataDependent=true
// CHECK-MESSAGES-DATA: :18:33: warning: global load 'rowStart[r + 1]' is misaligned: it touches 5 sectors per warp request (ideal 4, 80.0% efficiency) with block (128, 1, 1) from the launch at data-dependent.cu:42 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES-DATA: :19:12: warning: global load 'val[j]' has a data-dependent address (computed from 'rowStart[r]', read at run time): its sectors per request depend on the data with block (128, 1, 1) from the launch at data-dependent.cu:42 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES-DATA: :19:21: warning: global load 'x[col[j]]' has a data-dependent address (computed from 'col[j]', read at run time): its sectors per request depend on the data with block (128, 1, 1) from the launch at data-dependent.cu:42 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES-DATA: :19:23: warning: global load 'col[j]' has a data-dependent address (computed from 'rowStart[r]', read at run time): its sectors per request depend on the data with block (128, 1, 1) from the launch at data-dependent.cu:42 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES-DATA: :28:5: warning: global store 'out[to]' has a data-dependent address (computed from 'perm[i]', read at run time): its sectors per request depend on the data with block (128, 1, 1) from the launch at data-dependent.cu:43 [cuda-uncoalesced-global-access]
// The row's end, rowStart[r + 1], is read one word past a sector boundary
// in every warp: reported as misaligned whatever the option says (the
// DATA expectations list it first, in line order).
// CHECK-MESSAGES-DEFAULT: :18:33: warning: global load 'rowStart[r + 1]' is misaligned: it touches 5 sectors per warp request (ideal 4, 80.0% efficiency) with block (128, 1, 1) from the launch at data-dependent.cu:42 [cuda-uncoalesced-global-access]
