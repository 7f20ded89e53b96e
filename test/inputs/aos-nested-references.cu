// Test input for cuda-aos-layout: fields of an array of structs read
// through a reference bound to a struct inside the element (`const Vec3 &p =
// b[i].pos`, then `p.x`), through `->`, and through a reference to the
// element and then one to its member. Each read is a load of the element's
// field, 32 bytes apart from lane to lane, whatever name it is read by.
// Every kernel is launched from main() with 8 blocks of 128 threads, so the
// program runs on a GPU as it is analysed.
#include <cuda_runtime.h>

constexpr int N = 1024;
struct Vec3 { float x, y, z; };                                  // 12 bytes
struct Body { Vec3 pos; Vec3 vel; float mass; float charge; };   // 32 bytes

__global__ void nestedOneField(const Body *b, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const Vec3 &p = b[i].pos;
  out[i] = p.x;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: kernel 'nestedOneField' reads field pos.x of 'Body' (32 bytes) through 'b': 32 sectors per warp, 4 as structure-of-arrays (12.5% efficiency) with block (128, 1, 1) from the launch at aos-nested-references.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: the waste reaches DRAM: 1024 bytes per warp against 128 as structure-of-arrays (the bytes of the fields not read are fetched with the others)
  // CHECK-MESSAGES: :[[@LINE-4]]:19: note: no structure-of-arrays rewrite offered for 'b': 'b[i].pos' is bound to the reference 'p'
}

__global__ void nestedTwoFields(const Body *b, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const Vec3 &p = b[i].pos;
  out[i] = p.x + p.y;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: kernel 'nestedTwoFields' reads fields pos.x, pos.y of 'Body' (32 bytes) through 'b': 64 sectors per warp, 8 as structure-of-arrays (12.5% efficiency) with block (128, 1, 1) from the launch at aos-nested-references.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: the waste reaches DRAM: 1024 bytes per warp against 256 as structure-of-arrays (the bytes of the fields not read are fetched with the others)
  // CHECK-MESSAGES: :[[@LINE-4]]:19: note: no structure-of-arrays rewrite offered for 'b': 'b[i].pos' is bound to the reference 'p'
}

__global__ void nestedThroughArrow(const Body *b, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const Vec3 &v = (b + i)->vel;
  out[i] = v.z;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: kernel 'nestedThroughArrow' reads field vel.z of 'Body' (32 bytes) through 'b': 32 sectors per warp, 4 as structure-of-arrays (12.5% efficiency) with block (128, 1, 1) from the launch at aos-nested-references.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: the waste reaches DRAM: 1024 bytes per warp against 128 as structure-of-arrays (the bytes of the fields not read are fetched with the others)
  // CHECK-MESSAGES: :[[@LINE-4]]:20: note: no structure-of-arrays rewrite offered for 'b': 'b + i' is pointer arithmetic the rewrite does not follow
}

__global__ void referenceOfReference(const Body *b, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const Body &me = b[i];
  const Vec3 &v = me.vel;
  out[i] = v.y * me.mass;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: kernel 'referenceOfReference' reads fields vel.y, mass of 'Body' (32 bytes) through 'b': 64 sectors per warp, 8 as structure-of-arrays (12.5% efficiency) with block (128, 1, 1) from the launch at aos-nested-references.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: the waste reaches DRAM: 1024 bytes per warp against 256 as structure-of-arrays (the bytes of the fields not read are fetched with the others)
  // CHECK-MESSAGES: :[[@LINE-5]]:20: note: no structure-of-arrays rewrite offered for 'b': 'b[i]' is bound to the reference 'me'
}

int main() {
  Body *bodies;
  float *out;
  cudaMalloc(&bodies, N * sizeof(Body));
  cudaMalloc(&out, N * sizeof(float));
  cudaMemset(bodies, 0, N * sizeof(Body));
  nestedOneField<<<8, 128>>>(bodies, out);
  nestedTwoFields<<<8, 128>>>(bodies, out);
  nestedThroughArrow<<<8, 128>>>(bodies, out);
  referenceOfReference<<<8, 128>>>(bodies, out);
  cudaDeviceSynchronize();
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last: the H200 records of this input (test/hw/inputs/) are keyed
// by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-aos-layout' %t
// RUN: %check_warpcheck -door=binary %s 'cuda-aos-layout' %t.no-cuda -- --no-cuda
