// Test input for launch shapes host code keeps in objects: a planner whose
// constructor sets the tile and block from its parameters and whose method
// launches (cuda-samples' PiEstimator keeps its block size in a member and
// launches from operator()), a functor template whose operator() launches
// with its members, a base's constructor and a virtual override. Without
// the objects followed, every launch here read as the default block
// (256, 1, 1), and the tiles' columns looked conflict-free.
#include <cuda_runtime.h>

// A tile transposed through shared memory; the block's y extent is the
// tile's height. Column reads of a 32-wide tile are one bank.
__global__ void transposeTile(const float *in, float *out, int n) {
  __shared__ float tile[32][32];
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

// Each lane reads a row of `width` floats: the stride between lanes is the
// functor's width member.
__global__ void rowStarts(const float *in, float *out, int width) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  out[row] = in[row * width];
}

// Column-major data: a warp of a (4, 8) block reads 8 consecutive floats
// of each of 4 columns (4 sectors per request); 32 lanes along x would
// read 32 columns (32 sectors).
__global__ void scaleColumnMajor(float *data, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  data[col * n + row] *= 2.0f;
}

class TransposePlan {
public:
  TransposePlan(int n, int rows) : n_(n), block_(32, rows) { grid_ = dim3(n / 32, n / rows); }
  void run(const float *in, float *out) const { transposeTile<<<grid_, block_>>>(in, out, n_); }

private:
  int n_;
  dim3 block_;
  dim3 grid_;
};

template <typename T> class RowReader {
public:
  RowReader(int rows, int width, int threads) : rows_(rows), width_(width), threads_(threads) {}
  void operator()(const T *in, T *out) {
    dim3 block;
    block.x = threads_;
    rowStarts<<<rows_ / threads_, block>>>(in, out, width_);
  }

private:
  int rows_, width_, threads_;
};

struct ColumnPass {
  int n;
  explicit ColumnPass(int size) : n(size) {}
  virtual ~ColumnPass() {}
  virtual int rows() const { return 1; }
  void run(float *data) {
    dim3 block(32 / rows(), rows());
    scaleColumnMajor<<<dim3(n / block.x, n / block.y), block>>>(data, n);
  }
};

struct TallColumnPass : ColumnPass {
  TallColumnPass() : ColumnPass(512) {}
  int rows() const override { return 8; }
};

int main() {
  const int n = 512;
  float *a, *b;
  cudaMalloc(&a, n * n * sizeof(float));
  cudaMalloc(&b, n * n * sizeof(float));
  TransposePlan plan(n, 8);
  plan.run(a, b);
  RowReader<float> reader(n, 33, 128);
  reader(a, b);
  TallColumnPass pass;
  pass.run(a);
  cudaDeviceSynchronize();
  cudaFree(a);
  cudaFree(b);
  return 0;
}

// The column reads of the tile (line 18) under the plan's (32, 8) block,
// the rows of 33 floats under the reader's 128 threads; the column-major
// pass is coalesced under its (4, 8) block (4 sectors per request: not
// reported), where 32 lanes along x would have read 32 sectors.
// CHECK-MESSAGES: :18:20: warning: 32-way bank conflict reading 'tile[threadIdx.x][threadIdx.y]': lanes 0-31 all hit bank 0 (32 wavefronts per request, ideal 1) with block (32, 8, 1) from the launch at launch-shape-objects.cu:40 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :25:14: warning: global load 'in[row * width]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (128, 1, 1) from the launch at launch-shape-objects.cu:54 [cuda-uncoalesced-global-access]
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access,cuda-shared-bank-conflict %t
