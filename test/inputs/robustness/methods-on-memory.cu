// Methods of structs that live in global memory: they were never run (the
// interpreter skipped every method), so what they read and write through
// `this` was lost, and references they return were not addresses.
struct Particle {
  float x, y, z;
  __device__ float sum() const { return x + y + z; }
  __device__ void scale(float s) {
    x *= s;
    y *= s;
    z *= s;
  }
  __device__ float &weight() { return z; }
};

__global__ void particles(Particle *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].sum();
  p[i].scale(2.0f);
  p[i].weight() = 1.0f;
}
// EXPECT-ACCESS: x | load | global | sectors_per_request=12
// EXPECT-ACCESS: x | store | global | sectors_per_request=12
// EXPECT-ACCESS: out[i] | store | global | status=exact | sectors_per_request=4
// EXPECT-ACCESS: p[i].weight() | store | global | status=exact | sectors_per_request=12

struct Grid2D {
  float cells[64][32];
  __device__ float &at(int r, int c) { return cells[r][c]; }
};

__global__ void transpose_view(Grid2D *g, float *out) {
  int r = threadIdx.y, c = threadIdx.x;
  out[c * 64 + r] = g->at(r, c);
}
// EXPECT-ACCESS: g->at(r, c) | load | global | status=exact | sectors_per_request=4
// EXPECT-ACCESS: out[c * 64 + r] | store | global | status=exact | sectors_per_request=32

int main() {
  particles<<<64, 256>>>(nullptr, nullptr);
  transpose_view<<<1, dim3(32, 8)>>>(nullptr, nullptr);
}
