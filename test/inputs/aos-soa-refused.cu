// Test input for cuda-aos-layout's structure-of-arrays fix-it where it is
// not offered: each kernel reads its particles one struct apart, and a note
// names the use that keeps the rewrite from being the same program (an
// element used whole, an element's address, pointer arithmetic, the pointer
// copied, a device function another kernel calls with its own pointer, a
// field that is an array, a second declaration of the kernel, a launch through
// cudaLaunchKernel, a template). It is offered in aos-soa-rewrite.cu, and here
// for bodyMass, which reads a nested struct whole (last CHECK-FIXES below).
#include <cuda_runtime.h>

constexpr int N = 1024;
struct Particle { float x, y, z, vx, vy, vz; };
struct Vec3 { float x, y, z; };
struct Segment { Vec3 end[2]; };
struct Body { Vec3 pos; float mass; };

__global__ void copyWhole(const Particle *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Particle e = p[i];
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: kernel 'copyWhole' reads fields x, y, z, vx, vy, vz of 'Particle' (24 bytes) through 'p': 144 sectors per warp, 24 as structure-of-arrays (16.7% efficiency) with block (128, 1, 1) from the launch at aos-soa-refused.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-2]]:16: note: no structure-of-arrays rewrite offered for 'p': 'p[i]' is used as a whole value
  out[i] = e.x + e.vx;
}

__global__ void assignWhole(Particle *p, const Particle *from) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] = from[i];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel 'assignWhole' writes fields x, y, z, vx, vy, vz of 'Particle' (24 bytes) through 'p': 144 sectors per warp, 24 as structure-of-arrays (16.7% efficiency) with block (128, 1, 1) from the launch at aos-soa-refused.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: no structure-of-arrays rewrite offered for 'p': 'p[i]' is used as a whole value
  // CHECK-MESSAGES: :[[@LINE-3]]:10: warning: kernel 'assignWhole' reads fields x, y, z, vx, vy, vz of 'Particle' (24 bytes) through 'from': 144 sectors per warp, 24 as structure-of-arrays (16.7% efficiency) with block (128, 1, 1) from the launch at aos-soa-refused.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-4]]:10: note: no structure-of-arrays rewrite offered for 'from': 'from[i]' is used as a whole value
}

// The address of a field is kept (`&p[i].x` would become `&p.x[i]`); an
// element's is not.
__device__ void clampX(Particle *e) { e->x = fminf(e->x, 1.0f); }
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: kernel 'addressTaken' reads field x and writes field x of 'Particle' (24 bytes) through 'e': 48 sectors per warp, 8 as structure-of-arrays (16.7% efficiency) with block (128, 1, 1) from the launch at aos-soa-refused.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-2]]:39: note: no structure-of-arrays rewrite offered: the elements of 'e' do not come through a pointer parameter of the kernel

__global__ void addressTaken(Particle *p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&p[i].vx, 1.0f);
  p[i].y = p[i].z;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel 'addressTaken' reads field z and writes field y of 'Particle' (24 bytes) through 'p': 48 sectors per warp, 8 as structure-of-arrays (16.7% efficiency) with block (128, 1, 1) from the launch at aos-soa-refused.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE+1]]:10: note: no structure-of-arrays rewrite offered for 'p': '&p[i]' takes the address of an element
  clampX(&p[i]);
}

__global__ void shifted(const Particle *p, float *out) {
  const Particle *block = p + blockIdx.x * blockDim.x;
  out[blockIdx.x * blockDim.x + threadIdx.x] = block[threadIdx.x].y;
  // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: kernel 'shifted' reads field y of 'Particle' (24 bytes) through 'block': 24 sectors per warp, 4 as structure-of-arrays (16.7% efficiency) with block (128, 1, 1) from the launch at aos-soa-refused.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-3]]:27: note: no structure-of-arrays rewrite offered for 'p': 'p + blockIdx.x * blockDim.x' is pointer arithmetic the rewrite does not follow
}

__global__ void copied(const Particle *p, float *out) {
  const Particle *q = p;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = q[i].z;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: kernel 'copied' reads field z of 'Particle' (24 bytes) through 'q': 24 sectors per warp, 4 as structure-of-arrays (16.7% efficiency) with block (128, 1, 1) from the launch at aos-soa-refused.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-4]]:23: note: no structure-of-arrays rewrite offered for 'p': 'p' is copied into 'q'
}

__device__ float height(const Particle *q, int i) { return q[i].y; }
  // CHECK-MESSAGES: :[[@LINE-1]]:60: warning: kernel 'heights' reads field y of 'Particle' (24 bytes) through 'q': 24 sectors per warp, 4 as structure-of-arrays (16.7% efficiency) with block (128, 1, 1) from the launch at aos-soa-refused.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: aos-soa-refused.cu:{{[0-9]+}}:26: note: no structure-of-arrays rewrite offered for 'p': 'height' is also called with another pointer, 'p' in 'heightsToo'
  // CHECK-MESSAGES: :[[@LINE-3]]:60: warning: kernel 'heightsToo' reads field y of 'Particle' (24 bytes) through 'q': 24 sectors per warp, 4 as structure-of-arrays (16.7% efficiency) with block (128, 1, 1) from the launch at aos-soa-refused.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: aos-soa-refused.cu:{{[0-9]+}}:19: note: no structure-of-arrays rewrite offered for 'p': 'height' is also called with another pointer, 'p' in 'heights'

__global__ void heights(const Particle *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = height(p, i);
}

__global__ void heightsToo(const Particle *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2.0f * height(p, i);
}

__global__ void segmentEnds(const Segment *s, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = s[i].end[1].x - s[i].end[0].x;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: kernel 'segmentEnds' reads fields end[0].x, end[1].x of 'Segment' (24 bytes) through 's': 48 sectors per warp, 8 as structure-of-arrays (16.7% efficiency) with block (128, 1, 1) from the launch at aos-soa-refused.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-70]]:23: note: no structure-of-arrays rewrite offered for 's': field 'end' of 'Segment' is an array (the rewrite makes one array per scalar field)
}

__global__ void bodyMass(const Body *b, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Vec3 p = b[i].pos; out[i] = b[i].mass * (p.x + p.y + p.z);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: kernel 'bodyMass' reads fields pos, mass of 'Body' (16 bytes) through 'b': 64 sectors per warp, 16 as structure-of-arrays (25.0% efficiency) with block (128, 1, 1) from the launch at aos-soa-refused.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-4]]:38: note: structure-of-arrays rewrite (a fix-it on this note): 'b' becomes a 'BodySoA' view with one array per field of 'Body', and each 'b[i].f' becomes 'b.f[i]' in 'bodyMass'; the launches must then pass the view
}

__global__ void declaredTwice(const Particle *p, float *out);

__global__ void declaredTwice(const Particle *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].vz;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: kernel 'declaredTwice' reads field vz of 'Particle' (24 bytes) through 'p': 24 sectors per warp, 4 as structure-of-arrays (16.7% efficiency) with block (128, 1, 1) from the launch at aos-soa-refused.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-6]]:17: note: no structure-of-arrays rewrite offered for 'p': 'declaredTwice' is declared again at aos-soa-refused.cu:[[@LINE-6]] (each declaration would have to change)
}

__global__ void launchedByAddress(const Particle *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].vy;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: kernel 'launchedByAddress' reads field vy of 'Particle' (24 bytes) through 'p': 24 sectors per warp, 4 as structure-of-arrays (16.7% efficiency) with block (128, 1, 1) from the launch at aos-soa-refused.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: aos-soa-refused.cu:{{[0-9]+}}:34: note: no structure-of-arrays rewrite offered for 'p': 'launchedByAddress' is used at aos-soa-refused.cu:{{[0-9]+}} other than by a <<<...>>> launch (the arguments given there cannot be followed)
}

template <typename T>
__global__ void templated(const T *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].x;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: kernel 'templated<Particle>' reads field x of 'Particle' (24 bytes) through 'p': 24 sectors per warp, 4 as structure-of-arrays (16.7% efficiency) in 'templated<Particle>' with block (128, 1, 1) from the launch at aos-soa-refused.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: no structure-of-arrays rewrite offered for 'p': 'templated' is a template: the rewrite would change every instance
}

// Body's device arrays both ways, so that the launch compiles with bodyMass
// as it is and as its fix-it makes it (a pointer to the elements, a view).
struct Bodies {
  Body *elements;
  float *pos_x, *pos_y, *pos_z, *mass;
  operator const Body *() const { return elements; }
  template <typename View> operator View() const { return View{pos_x, pos_y, pos_z, mass}; }
};

int main() {
  Particle *particles, *more;
  Segment *segments;
  Bodies bodies{};
  float *out;
  cudaMalloc(&particles, N * sizeof(Particle));
  cudaMalloc(&more, N * sizeof(Particle));
  cudaMalloc(&segments, N * sizeof(Segment));
  cudaMalloc(&bodies.elements, N * sizeof(Body));
  cudaMalloc(&out, N * sizeof(float));
  copyWhole<<<8, 128>>>(particles, out);
  assignWhole<<<8, 128>>>(particles, more);
  addressTaken<<<8, 128>>>(particles);
  shifted<<<8, 128>>>(particles, out);
  copied<<<8, 128>>>(particles, out);
  heights<<<8, 128>>>(particles, out);
  heightsToo<<<8, 128>>>(particles, out);
  segmentEnds<<<8, 128>>>(segments, out);
  bodyMass<<<8, 128>>>(bodies, out);
  declaredTwice<<<8, 128>>>(particles, out);
  void *args[] = {&particles, &out};
  cudaLaunchKernel((const void *)launchedByAddress, dim3(8), dim3(128), args, 0, 0);
  templated<Particle><<<8, 128>>>(particles, out);
  cudaDeviceSynchronize();
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last: the H200 records of this input (test/hw/inputs/) are keyed
// by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-aos-layout' %t -- --fix-notes
// RUN: %check_warpcheck -door=binary %s 'cuda-aos-layout' %t.no-cuda -- --no-cuda --fix-notes
// bodyMass's nested struct read whole, built from the view's arrays (a
// nested struct written whole, or bound to a reference that may write it, is
// refused: test/unit/SoaRewriteTest.cpp).
// CHECK-FIXES: {{^}}  Vec3 p = Vec3{b.pos_x[i], b.pos_y[i], b.pos_z[i]}; out[i] = b.mass[i] * (p.x + p.y + p.z);{{$}}
