// Test input for cuda-aos-layout: arrays of structs of 8, 12, 16, 24, 32 and
// 48 bytes whose lanes are one struct apart, one field and all fields, an
// __align__(16) struct, nested structs, an array of structs inside a struct,
// and structs copied whole. Every kernel is launched from main() with
// 8 blocks of 128 threads, so the program runs on a GPU as it is analysed.
#include <cuda_runtime.h>

constexpr int N = 1024;
struct Pair { float a, b; };                              // 8 bytes
struct Vec3 { float x, y, z; };                           // 12 bytes
struct __align__(16) Quad { float x, y, z, w; };          // 16 bytes
struct Particle { float x, y, z, vx, vy, vz; };           // 24 bytes
class Body { public: double pos[3]; float mass; int id; }; // 32 bytes
struct Cell { Vec3 pos; Vec3 vel; float extra[6]; };      // 48 bytes
struct Segment { Vec3 end[2]; };                          // 24 bytes

__global__ void pairOneField(const Pair *q, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = q[i].a;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: kernel 'pairOneField' reads field a of 'Pair' (8 bytes) through 'q': 8 sectors per warp, 4 as structure-of-arrays (50.0% efficiency) with block (128, 1, 1) from the launch at cuda-aos-layout.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: the waste reaches DRAM: 256 bytes per warp against 128 as structure-of-arrays (the bytes of the fields not read are fetched with the others)
}

__global__ void pairBothFields(const Pair *q, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = q[i].a * q[i].b;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: kernel 'pairBothFields' reads fields a, b of 'Pair' (8 bytes) through 'q': 16 sectors per warp, 8 as structure-of-arrays (50.0% efficiency) with block (128, 1, 1) from the launch at cuda-aos-layout.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: the waste is in L1 sectors only: DRAM moves 256 bytes per warp either way (every field is used)
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: or move each element whole with one 8-byte vector access (declared __align__(8), read as a whole struct): 8 sectors per warp, 256 DRAM bytes
}

__global__ void vec3AllFields(const Vec3 *v, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = v[i].x + v[i].y + v[i].z;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: kernel 'vec3AllFields' reads fields x, y, z of 'Vec3' (12 bytes) through 'v': 36 sectors per warp, 12 as structure-of-arrays (33.3% efficiency) with block (128, 1, 1) from the launch at cuda-aos-layout.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: the waste is in L1 sectors only: DRAM moves 384 bytes per warp either way (every field is used)
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: or move each element whole with one 16-byte vector access (padded by 4 bytes with __align__(16), read as a whole struct): 16 sectors per warp, 512 DRAM bytes
}

__global__ void vec3Whole(const Vec3 *v, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Vec3 w = v[i];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: kernel 'vec3Whole' reads fields x, y, z of 'Vec3' (12 bytes) through 'v': 36 sectors per warp, 12 as structure-of-arrays (33.3% efficiency) with block (128, 1, 1) from the launch at cuda-aos-layout.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: the waste is in L1 sectors only: DRAM moves 384 bytes per warp either way (every field is used)
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: or move each element whole with one 16-byte vector access (padded by 4 bytes with __align__(16), read as a whole struct): 16 sectors per warp, 512 DRAM bytes
  out[i] = w.x * w.y * w.z;
}

__global__ void quadOneField(const Quad *q, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = q[i].w;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: kernel 'quadOneField' reads field w of 'Quad' (16 bytes) through 'q': 16 sectors per warp, 4 as structure-of-arrays (25.0% efficiency) with block (128, 1, 1) from the launch at cuda-aos-layout.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: the waste reaches DRAM: 512 bytes per warp against 128 as structure-of-arrays (the bytes of the fields not read are fetched with the others)
}

// An aligned 16-byte struct copied whole is one 16-byte load per lane:
// what the four arrays of structure-of-arrays would move. No finding.
__global__ void quadWhole(const Quad *q, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Quad v = q[i];
  out[i] = v.x + v.y + v.z + v.w;
}

__global__ void particleOneField(const Particle *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].x;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: kernel 'particleOneField' reads field x of 'Particle' (24 bytes) through 'p': 24 sectors per warp, 4 as structure-of-arrays (16.7% efficiency) with block (128, 1, 1) from the launch at cuda-aos-layout.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: the waste reaches DRAM: 768 bytes per warp against 128 as structure-of-arrays (the bytes of the fields not read are fetched with the others)
}

__global__ void update(const Particle *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].x + p[i].y + p[i].z;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: kernel 'update' reads fields x, y, z of 'Particle' (24 bytes) through 'p': 72 sectors per warp, 12 as structure-of-arrays (16.7% efficiency) with block (128, 1, 1) from the launch at cuda-aos-layout.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: the waste reaches DRAM: 768 bytes per warp against 384 as structure-of-arrays (the bytes of the fields not read are fetched with the others)
}

__global__ void integrate(Particle *p, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float vx = p[i].vx, vy = p[i].vy, vz = p[i].vz;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: kernel 'integrate' reads fields x, y, z, vx, vy, vz and writes fields x, y, z of 'Particle' (24 bytes) through 'p': 216 sectors per warp, 36 as structure-of-arrays (16.7% efficiency) with block (128, 1, 1) from the launch at cuda-aos-layout.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: loads: 144 sectors per warp (24 as structure-of-arrays); stores: 72 (12)
  // CHECK-MESSAGES: :[[@LINE-3]]:14: note: the waste reaches DRAM: 1536 bytes per warp against 1152 as structure-of-arrays (the bytes of the fields not accessed are fetched with the others)
  p[i].x += vx * dt;
  p[i].y += vy * dt;
  p[i].z += vz * dt;
}

__global__ void bodyPositions(const Body *b, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = (b[i].pos[0] + b[i].pos[1] + b[i].pos[2]) * b[i].mass;
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: kernel 'bodyPositions' reads fields pos[0], pos[1], pos[2], mass of 'Body' (32 bytes) through 'b': 128 sectors per warp, 28 as structure-of-arrays (21.9% efficiency) with block (128, 1, 1) from the launch at cuda-aos-layout.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-2]]:13: note: the waste reaches DRAM: 1024 bytes per warp against 896 as structure-of-arrays (the bytes of the fields not read are fetched with the others)
}

__global__ void cellVelocity(const Cell *c, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = c[i].vel.y;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: kernel 'cellVelocity' reads field vel.y of 'Cell' (48 bytes) through 'c': 32 sectors per warp, 4 as structure-of-arrays (12.5% efficiency) with block (128, 1, 1) from the launch at cuda-aos-layout.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: the waste reaches DRAM: 1024 bytes per warp against 128 as structure-of-arrays (the bytes of the fields not read are fetched with the others)
}

__global__ void segmentEnd(const Segment *s, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const Segment &seg = s[i];
  out[i] = seg.end[1].x - seg.end[0].x;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: kernel 'segmentEnd' reads fields end[0].x, end[1].x of 'Segment' (24 bytes) through 's': 48 sectors per warp, 8 as structure-of-arrays (16.7% efficiency) with block (128, 1, 1) from the launch at cuda-aos-layout.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: the waste reaches DRAM: 768 bytes per warp against 256 as structure-of-arrays (the bytes of the fields not read are fetched with the others)
}

int main() {
  float *out;
  double *outD;
  Pair *pairs;
  Vec3 *vecs;
  Quad *quads;
  Particle *particles;
  Body *bodies;
  Cell *cells;
  Segment *segments;
  cudaMalloc(&out, N * sizeof(float));
  cudaMalloc(&outD, N * sizeof(double));
  cudaMalloc(&pairs, N * sizeof(Pair));
  cudaMalloc(&vecs, N * sizeof(Vec3));
  cudaMalloc(&quads, N * sizeof(Quad));
  cudaMalloc(&particles, N * sizeof(Particle));
  cudaMalloc(&bodies, N * sizeof(Body));
  cudaMalloc(&cells, N * sizeof(Cell));
  cudaMalloc(&segments, N * sizeof(Segment));
  pairOneField<<<8, 128>>>(pairs, out);
  pairBothFields<<<8, 128>>>(pairs, out);
  vec3AllFields<<<8, 128>>>(vecs, out);
  vec3Whole<<<8, 128>>>(vecs, out);
  quadOneField<<<8, 128>>>(quads, out);
  quadWhole<<<8, 128>>>(quads, out);
  particleOneField<<<8, 128>>>(particles, out);
  update<<<8, 128>>>(particles, out);
  integrate<<<8, 128>>>(particles, 0.01f);
  bodyPositions<<<8, 128>>>(bodies, outD);
  cellVelocity<<<8, 128>>>(cells, out);
  segmentEnd<<<8, 128>>>(segments, out);
  cudaDeviceSynchronize();
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last: the H200 records of this input (test/hw/inputs/) are keyed
// by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-aos-layout' %t
// RUN: %check_warpcheck -door=binary %s 'cuda-aos-layout' %t.no-cuda -- --no-cuda
