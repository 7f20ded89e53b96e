// Test input for the structure-of-arrays fix-it of cuda-aos-layout, applied
// through both doors with --fix-notes: a kernel reading three fields (and
// the first element, `p->x`), one updating its particles, one passing the
// pointer to a device function, a second struct with a view of its own, and
// a struct with structs nested in it, flattened into the view.
// The kernels the rewrite is refused for are in aos-soa-refused.cu.
//
// The host code passes each kernel an argument that converts to the
// kernel's parameter as it is now (a pointer to the elements) and as the
// rewrite makes it (a view of one array per field): the program compiles
// and runs before the rewrite and after it. aos-soa-rewritten.cu is this
// file as the fix-its leave it (test/soa_rewrite_tests.py holds the two to
// each other and compiles it with nvcc); both are measured on the H200.
#include <cuda_runtime.h>

#include <type_traits>

constexpr int N = 1024;
struct Particle { float x, y, z, vx, vy, vz; };
// CHECK-FIXES: {{^}}struct Particle { float x, y, z, vx, vy, vz; };{{$}}
// CHECK-FIXES-NEXT: {{^}}struct ParticleSoA { float *x; float *y; float *z; float *vx; float *vy; float *vz; };{{$}}
struct Pair { float a, b; };
// CHECK-FIXES: {{^}}struct PairSoA { float *a; float *b; };{{$}}

__global__ void update(const Particle *p, float *out) {
  // CHECK-FIXES: {{^}}__global__ void update(ParticleSoA p, float *out) {{[{]}}{{$}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].x + p[i].y + p[i].z - p->x;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: kernel 'update' reads fields x, y, z of 'Particle' (24 bytes) through 'p': 72 sectors per warp, 12 as structure-of-arrays (16.7% efficiency) with block (128, 1, 1) from the launch at aos-soa-rewrite.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-5]]:40: note: structure-of-arrays rewrite (a fix-it on this note): 'p' becomes a 'ParticleSoA' view with one array per field of 'Particle', and each 'p[i].f' becomes 'p.f[i]' in 'update'; the launches must then pass the view
  // CHECK-MESSAGES: aos-soa-rewrite.cu:{{[0-9]+}}:22: note: this launch passes 'particles' for 'p': once the kernel is rewritten it passes a 'ParticleSoA' of one device array per field, 'ParticleSoA{x, y, z, vx, vy, vz}', field f of element i at f[i]
  // CHECK-FIXES: {{^}}  out[i] = p.x[i] + p.y[i] + p.z[i] - p.x[0];{{$}}
}

__global__ void integrate(Particle *p, float dt) {
  // CHECK-FIXES: {{^}}__global__ void integrate(ParticleSoA p, float dt) {{[{]}}{{$}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i].x += p[i].vx * dt;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel 'integrate' reads fields x, y, z, vx, vy, vz and writes fields x, y, z of 'Particle' (24 bytes) through 'p': 216 sectors per warp, 36 as structure-of-arrays (16.7% efficiency) with block (128, 1, 1) from the launch at aos-soa-rewrite.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-5]]:37: note: structure-of-arrays rewrite (a fix-it on this note): 'p' becomes a 'ParticleSoA' view with one array per field of 'Particle', and each 'p[i].f' becomes 'p.f[i]' in 'integrate'; 'ParticleSoA' is declared by the fix-it offered for 'update'; the launches must then pass the view
  // CHECK-MESSAGES: aos-soa-rewrite.cu:{{[0-9]+}}:25: note: this launch passes 'particles' for 'p': once the kernel is rewritten it passes a 'ParticleSoA' of one device array per field, 'ParticleSoA{x, y, z, vx, vy, vz}', field f of element i at f[i]
  // CHECK-FIXES: {{^}}  p.x[i] += p.vx[i] * dt;{{$}}
  p[i].y += p[i].vy * dt;
  // CHECK-FIXES: {{^}}  p.y[i] += p.vy[i] * dt;{{$}}
  p[i].z += p[i].vz * dt;
  // CHECK-FIXES: {{^}}  p.z[i] += p.vz[i] * dt;{{$}}
}

// The pointer is passed on: the device function's parameter becomes the
// view too.
__device__ float speed(const Particle *q, int i) {
  // CHECK-FIXES: {{^}}__device__ float speed(ParticleSoA q, int i) {{[{]}}{{$}}
  float vx = q[i].vx, vy = q[i].vy, vz = q[i].vz;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: kernel 'speeds' reads fields vx, vy, vz of 'Particle' (24 bytes) through 'q': 72 sectors per warp, 12 as structure-of-arrays (16.7% efficiency) with block (128, 1, 1) from the launch at aos-soa-rewrite.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE+6]]:40: note: structure-of-arrays rewrite (a fix-it on this note): 'p' becomes a 'ParticleSoA' view with one array per field of 'Particle', and each 'p[i].f' becomes 'p.f[i]' in 'speeds' and the device function 'speed'; 'ParticleSoA' is declared by the fix-it offered for 'update'; the launches must then pass the view
  // CHECK-MESSAGES: aos-soa-rewrite.cu:{{[0-9]+}}:22: note: this launch passes 'particles' for 'p': once the kernel is rewritten it passes a 'ParticleSoA' of one device array per field, 'ParticleSoA{x, y, z, vx, vy, vz}', field f of element i at f[i]
  // CHECK-FIXES: {{^}}  float vx = q.vx[i], vy = q.vy[i], vz = q.vz[i];{{$}}
  return sqrtf(vx * vx + vy * vy + vz * vz);
}

__global__ void speeds(const Particle *p, float *out) {
  // CHECK-FIXES: {{^}}__global__ void speeds(ParticleSoA p, float *out) {{[{]}}{{$}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = speed(p, i);
}

__global__ void scalePairs(Pair *q, float s) {
  // CHECK-FIXES: {{^}}__global__ void scalePairs(PairSoA q, float s) {{[{]}}{{$}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  q[i].a *= s;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel 'scalePairs' reads fields a, b and writes fields a, b of 'Pair' (8 bytes) through 'q': 32 sectors per warp, 16 as structure-of-arrays (50.0% efficiency) with block (128, 1, 1) from the launch at aos-soa-rewrite.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-5]]:34: note: structure-of-arrays rewrite (a fix-it on this note): 'q' becomes a 'PairSoA' view with one array per field of 'Pair', and each 'q[i].f' becomes 'q.f[i]' in 'scalePairs'; the launches must then pass the view
  // CHECK-MESSAGES: aos-soa-rewrite.cu:{{[0-9]+}}:26: note: this launch passes 'pairs' for 'q': once the kernel is rewritten it passes a 'PairSoA' of one device array per field, 'PairSoA{a, b}', field f of element i at f[i]
  // CHECK-FIXES: {{^}}  q.a[i] *= s;{{$}}
  q[i].b *= s;
  // CHECK-FIXES: {{^}}  q.b[i] *= s;{{$}}
}

// A struct nested in the element: each scalar field of it becomes an array
// of the view, named after the path to it ('pos.x' -> 'pos_x').
struct Vec3f { float x, y, z; };
struct Body { Vec3f pos; Vec3f vel; float mass; };
// CHECK-FIXES: {{^}}struct Body { Vec3f pos; Vec3f vel; float mass; };{{$}}
// CHECK-FIXES-NEXT: {{^}}struct BodySoA { float *pos_x; float *pos_y; float *pos_z; float *vel_x; float *vel_y; float *vel_z; float *mass; };{{$}}

__global__ void drift(Body *b, float dt) {
  // CHECK-FIXES: {{^}}__global__ void drift(BodySoA b, float dt) {{[{]}}{{$}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  b[i].pos.x += b[i].vel.x * dt;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel 'drift' reads fields pos.x, pos.y, pos.z, vel.x, vel.y, vel.z and writes fields pos.x, pos.y, pos.z of 'Body' (28 bytes) through 'b': 252 sectors per warp, 36 as structure-of-arrays (14.3% efficiency) with block (128, 1, 1) from the launch at aos-soa-rewrite.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-5]]:29: note: structure-of-arrays rewrite (a fix-it on this note): 'b' becomes a 'BodySoA' view with one array per field of 'Body', and each 'b[i].f' becomes 'b.f[i]' in 'drift'; the launches must then pass the view
  // CHECK-MESSAGES: aos-soa-rewrite.cu:{{[0-9]+}}:21: note: this launch passes 'bodies' for 'b': once the kernel is rewritten it passes a 'BodySoA' of one device array per field, 'BodySoA{pos_x, pos_y, pos_z, vel_x, vel_y, vel_z, mass}', field f of element i at f[i]
  // CHECK-FIXES: {{^}}  b.pos_x[i] += b.vel_x[i] * dt;{{$}}
  b[i].pos.y += b[i].vel.y * dt;
  // CHECK-FIXES: {{^}}  b.pos_y[i] += b.vel_y[i] * dt;{{$}}
  b[i].pos.z += (b[i].vel.z - b->vel.z) * dt;
  // CHECK-FIXES: {{^}}  b.pos_z[i] += (b.vel_z[i] - b.vel_z[0]) * dt;{{$}}
}

// A reference to the element and one to a struct inside it: the fields
// read and written through them are the element's, each its array at the
// element's index, and the references' declarations go.
__global__ void kick(Body *b, float dt) {
  // CHECK-FIXES: {{^}}__global__ void kick(BodySoA b, float dt) {{[{]}}{{$}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Body &me = b[i];
  const Vec3f &v = me.vel;
  me.pos.x += v.x * dt;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel 'kick' reads fields pos.x, pos.y, vel.x, vel.y, mass and writes fields pos.x, pos.y of 'Body' (28 bytes) through 'b': 196 sectors per warp, 28 as structure-of-arrays (14.3% efficiency) with block (128, 1, 1) from the launch at aos-soa-rewrite.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-7]]:28: note: structure-of-arrays rewrite (a fix-it on this note): 'b' becomes a 'BodySoA' view with one array per field of 'Body', and each 'b[i].f' becomes 'b.f[i]' in 'kick'; 'BodySoA' is declared by the fix-it offered for 'drift'; the launches must then pass the view
  // CHECK-MESSAGES: aos-soa-rewrite.cu:{{[0-9]+}}:20: note: this launch passes 'bodies' for 'b': once the kernel is rewritten it passes a 'BodySoA' of one device array per field, 'BodySoA{pos_x, pos_y, pos_z, vel_x, vel_y, vel_z, mass}', field f of element i at f[i]
  me.pos.y += v.y * dt * me.mass;
  // CHECK-FIXES: {{^}}  int i = blockIdx.x * blockDim.x + threadIdx.x;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  b.pos_x[i] += b.vel_x[i] * dt;{{$}}
  // CHECK-FIXES: {{^}}  b.pos_y[i] += b.vel_y[i] * dt * b.mass[i];{{$}}
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

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py): with
// --fix-notes, as the rewrite is a fix-it on a note. The RUN lines are
// last: the H200 records of this input (test/hw/inputs/) are keyed by the
// line numbers above.
// RUN: %check_warpcheck %s 'cuda-aos-layout' %t -- --fix-notes
// RUN: %check_warpcheck -door=binary %s 'cuda-aos-layout' %t.no-cuda -- --no-cuda --fix-notes
