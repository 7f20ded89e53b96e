// Test input: aos-soa-rewrite.cu as cuda-aos-layout's structure-of-arrays
// fix-its leave it (--fix-notes), its host code unchanged (the arguments
// it passes convert to the views). test/soa_rewrite_tests.py holds the two
// files' code to each other, compiles this one with nvcc where a toolkit
// is found, and checks that its accesses move the sectors the warnings of
// aos-soa-rewrite.cu give as structure-of-arrays. Re-analysed, the
// rewritten kernels are coalesced: no finding of either global-memory
// check. Measured on the H200 beside aos-soa-rewrite.cu.
#include <cuda_runtime.h>

#include <type_traits>

constexpr int N = 1024;
struct Particle { float x, y, z, vx, vy, vz; };
struct ParticleSoA { float *x; float *y; float *z; float *vx; float *vy; float *vz; };
struct Pair { float a, b; };
struct PairSoA { float *a; float *b; };

__global__ void update(ParticleSoA p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p.x[i] + p.y[i] + p.z[i] - p.x[0];
}

__global__ void integrate(ParticleSoA p, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p.x[i] += p.vx[i] * dt;
  p.y[i] += p.vy[i] * dt;
  p.z[i] += p.vz[i] * dt;
}

// The pointer is passed on: the device function's parameter becomes the
// view too.
__device__ float speed(ParticleSoA q, int i) {
  float vx = q.vx[i], vy = q.vy[i], vz = q.vz[i];
  return sqrtf(vx * vx + vy * vy + vz * vz);
}

__global__ void speeds(ParticleSoA p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = speed(p, i);
}

__global__ void scalePairs(PairSoA q, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  q.a[i] *= s;
  q.b[i] *= s;
}

struct Vec3f { float x, y, z; };
struct Body { Vec3f pos; Vec3f vel; float mass; };
struct BodySoA { float *pos_x; float *pos_y; float *pos_z; float *vel_x; float *vel_y; float *vel_z; float *mass; };

__global__ void drift(BodySoA b, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  b.pos_x[i] += b.vel_x[i] * dt;
  b.pos_y[i] += b.vel_y[i] * dt;
  b.pos_z[i] += (b.vel_z[i] - b.vel_z[0]) * dt;
}

// A reference to the element and one to a struct inside it: the fields
// read and written through them are the element's, each its array at the
// element's index, and the references' declarations go.
__global__ void kick(BodySoA b, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  b.pos_x[i] += b.vel_x[i] * dt;
  b.pos_y[i] += b.vel_y[i] * dt * b.mass[i];
}

// The device arrays of each struct, both ways: one array of elements, and
// one array per field. The argument converts to a pointer to the elements
// or to a view built from the field arrays, whichever the kernel takes.
struct Particles {
  Particle *elements;
  float *x, *y, *z, *vx, *vy, *vz;
  operator Particle *() const { return elements; }
  template <typename View, typename = std::enable_if_t<std::is_class_v<View>>>
  operator View() const { return View{x, y, z, vx, vy, vz}; }
};
struct Pairs {
  Pair *elements;
  float *a, *b;
  operator Pair *() const { return elements; }
  template <typename View, typename = std::enable_if_t<std::is_class_v<View>>>
  operator View() const { return View{a, b}; }
};
struct Bodies {
  Body *elements;
  float *pos_x, *pos_y, *pos_z, *vel_x, *vel_y, *vel_z, *mass;
  operator Body *() const { return elements; }
  template <typename View, typename = std::enable_if_t<std::is_class_v<View>>>
  operator View() const { return View{pos_x, pos_y, pos_z, vel_x, vel_y, vel_z, mass}; }
};

int main() {
  Particles particles;
  Pairs pairs;
  Bodies bodies;
  float *out;
  cudaMalloc(&particles.elements, N * sizeof(Particle));
  cudaMalloc(&particles.x, N * sizeof(float));
  cudaMalloc(&particles.y, N * sizeof(float));
  cudaMalloc(&particles.z, N * sizeof(float));
  cudaMalloc(&particles.vx, N * sizeof(float));
  cudaMalloc(&particles.vy, N * sizeof(float));
  cudaMalloc(&particles.vz, N * sizeof(float));
  cudaMalloc(&pairs.elements, N * sizeof(Pair));
  cudaMalloc(&pairs.a, N * sizeof(float));
  cudaMalloc(&pairs.b, N * sizeof(float));
  cudaMalloc(&bodies.elements, N * sizeof(Body));
  cudaMalloc(&bodies.pos_x, N * sizeof(float));
  cudaMalloc(&bodies.pos_y, N * sizeof(float));
  cudaMalloc(&bodies.pos_z, N * sizeof(float));
  cudaMalloc(&bodies.vel_x, N * sizeof(float));
  cudaMalloc(&bodies.vel_y, N * sizeof(float));
  cudaMalloc(&bodies.vel_z, N * sizeof(float));
  cudaMalloc(&bodies.mass, N * sizeof(float));
  cudaMalloc(&out, N * sizeof(float));
  // A query of the kernel's attributes passes no arguments: it does not
  // stand in the rewrite's way.
  cudaFuncAttributes attributes;
  cudaFuncGetAttributes(&attributes, update);
  update<<<8, 128>>>(particles, out);
  integrate<<<8, 128>>>(particles, 0.01f);
  speeds<<<8, 128>>>(particles, out);
  scalePairs<<<8, 128>>>(pairs, 2.0f);
  drift<<<8, 128>>>(bodies, 0.01f);
  kick<<<8, 128>>>(bodies, 0.01f);
  cudaDeviceSynchronize();
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py): no
// diagnostic at all. The RUN lines are last: the H200 records of this
// input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-aos-layout,cuda-uncoalesced-global-access' %t
// RUN: %check_warpcheck -door=binary %s 'cuda-aos-layout,cuda-uncoalesced-global-access' %t.no-cuda -- --no-cuda
