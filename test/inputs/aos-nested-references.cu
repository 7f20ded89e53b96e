// Test input for cuda-aos-layout: fields of an array of structs read
// through a reference bound to a struct inside the element (`const Vec3 &p =
// b[i].pos`, then `p.x`), through `->`, and through a reference to the
// element and then one to its member. Each read is a load of the element's
// field, 32 bytes apart from lane to lane, whatever name it is read by.
// Each kernel is launched with 8 blocks of 128 threads, so the program runs
// on a GPU as analysed (the rewrite's CHECK-FIXES are at the end).
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
  // CHECK-MESSAGES: :[[@LINE-6]]:44: note: structure-of-arrays rewrite (a fix-it on this note): 'b' becomes a 'BodySoA' view with one array per field of 'Body', and each 'b[i].f' becomes 'b.f[i]' in 'nestedOneField'; the launches must then pass the view
}

__global__ void nestedTwoFields(const Body *b, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const Vec3 &p = b[i].pos;
  out[i] = p.x + p.y;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: kernel 'nestedTwoFields' reads fields pos.x, pos.y of 'Body' (32 bytes) through 'b': 64 sectors per warp, 8 as structure-of-arrays (12.5% efficiency) with block (128, 1, 1) from the launch at aos-nested-references.cu:{{[0-9]+}} [cuda-aos-layout]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: the waste reaches DRAM: 1024 bytes per warp against 256 as structure-of-arrays (the bytes of the fields not read are fetched with the others)
  // CHECK-MESSAGES: :[[@LINE-6]]:45: note: structure-of-arrays rewrite (a fix-it on this note): 'b' becomes a 'BodySoA' view with one array per field of 'Body', and each 'b[i].f' becomes 'b.f[i]' in 'nestedTwoFields'; 'BodySoA' is declared by the fix-it offered for 'nestedOneField'; the launches must then pass the view
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
  // CHECK-MESSAGES: :[[@LINE-7]]:50: note: structure-of-arrays rewrite (a fix-it on this note): 'b' becomes a 'BodySoA' view with one array per field of 'Body', and each 'b[i].f' becomes 'b.f[i]' in 'referenceOfReference'; 'BodySoA' is declared by the fix-it offered for 'nestedOneField'; the launches must then pass the view
}

// The device arrays both ways: one array of elements, and one per field of
// the structure-of-arrays view. The argument converts to whichever the
// kernel takes, so the program compiles before the rewrite and after it.
#include <type_traits>
struct Bodies {
  Body *elements;
  float *fields[8];
  operator const Body *() const { return elements; }
  template <typename View, typename = std::enable_if_t<std::is_class_v<View>>>
  operator View() const {
    return View{fields[0], fields[1], fields[2], fields[3],
                fields[4], fields[5], fields[6], fields[7]};
  }
};

int main() {
  Bodies bodies;
  float *out;
  cudaMalloc(&bodies.elements, N * sizeof(Body));
  for (float *&f : bodies.fields)
    cudaMalloc(&f, N * sizeof(float));
  cudaMalloc(&out, N * sizeof(float));
  cudaMemset(bodies.elements, 0, N * sizeof(Body));
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
// RUN: %check_warpcheck %s 'cuda-aos-layout' %t -- --fix-notes
// RUN: %check_warpcheck -door=binary %s 'cuda-aos-layout' %t.no-cuda -- --no-cuda --fix-notes
// With --fix-notes the structure-of-arrays rewrite is made where it is
// offered: a field read through a reference to the element, or to a struct
// inside it, becomes the field's array at the element's index, and the
// references' declarations go; through `b + i` it is not offered.
// CHECK-FIXES: {{^}}__global__ void nestedOneField(BodySoA b, float *out) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  int i = blockIdx.x * blockDim.x + threadIdx.x;{{$}}
// CHECK-FIXES-NEXT: {{^}}  out[i] = b.pos_x[i];{{$}}
// CHECK-FIXES: {{^}}__global__ void nestedTwoFields(BodySoA b, float *out) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  int i = blockIdx.x * blockDim.x + threadIdx.x;{{$}}
// CHECK-FIXES-NEXT: {{^}}  out[i] = b.pos_x[i] + b.pos_y[i];{{$}}
// CHECK-FIXES: {{^}}__global__ void nestedThroughArrow(const Body *b, float *out) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  int i = blockIdx.x * blockDim.x + threadIdx.x;{{$}}
// CHECK-FIXES-NEXT: {{^}}  const Vec3 &v = (b + i)->vel;{{$}}
// CHECK-FIXES: {{^}}__global__ void referenceOfReference(BodySoA b, float *out) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  int i = blockIdx.x * blockDim.x + threadIdx.x;{{$}}
// CHECK-FIXES-NEXT: {{^}}  out[i] = b.vel_y[i] * b.mass[i];{{$}}
