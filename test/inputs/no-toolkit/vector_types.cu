// Parses with NO CUDA toolkit (see check-parse.sh): every vector type, its
// make_* function and CUDA's size/alignment/member layout; dim3 defaults.

#include <cstddef>
#include <vector_types.h>
#include <vector_functions.h>

#define CHECK_LAYOUT(T, Size, Align)                                           \
  static_assert(sizeof(T) == (Size), #T " size");                              \
  static_assert(alignof(T) == (Align), #T " alignment")

CHECK_LAYOUT(char1, 1, 1);
CHECK_LAYOUT(uchar1, 1, 1);
CHECK_LAYOUT(char2, 2, 2);
CHECK_LAYOUT(uchar2, 2, 2);
CHECK_LAYOUT(char3, 3, 1);
CHECK_LAYOUT(uchar3, 3, 1);
CHECK_LAYOUT(char4, 4, 4);
CHECK_LAYOUT(uchar4, 4, 4);
CHECK_LAYOUT(short1, 2, 2);
CHECK_LAYOUT(ushort1, 2, 2);
CHECK_LAYOUT(short2, 4, 4);
CHECK_LAYOUT(ushort2, 4, 4);
CHECK_LAYOUT(short3, 6, 2);
CHECK_LAYOUT(ushort3, 6, 2);
CHECK_LAYOUT(short4, 8, 8);
CHECK_LAYOUT(ushort4, 8, 8);
CHECK_LAYOUT(int1, 4, 4);
CHECK_LAYOUT(uint1, 4, 4);
CHECK_LAYOUT(int2, 8, 8);
CHECK_LAYOUT(uint2, 8, 8);
CHECK_LAYOUT(int3, 12, 4);
CHECK_LAYOUT(uint3, 12, 4);
CHECK_LAYOUT(int4, 16, 16);
CHECK_LAYOUT(uint4, 16, 16);
CHECK_LAYOUT(long1, 8, 8);
CHECK_LAYOUT(ulong1, 8, 8);
CHECK_LAYOUT(long2, 16, 16);
CHECK_LAYOUT(ulong2, 16, 16);
CHECK_LAYOUT(long3, 24, 8);
CHECK_LAYOUT(ulong3, 24, 8);
CHECK_LAYOUT(long4, 32, 16);
CHECK_LAYOUT(ulong4, 32, 16);
CHECK_LAYOUT(longlong1, 8, 8);
CHECK_LAYOUT(ulonglong1, 8, 8);
CHECK_LAYOUT(longlong2, 16, 16);
CHECK_LAYOUT(ulonglong2, 16, 16);
CHECK_LAYOUT(longlong3, 24, 8);
CHECK_LAYOUT(ulonglong3, 24, 8);
CHECK_LAYOUT(longlong4, 32, 16);
CHECK_LAYOUT(ulonglong4, 32, 16);
CHECK_LAYOUT(float1, 4, 4);
CHECK_LAYOUT(float2, 8, 8);
CHECK_LAYOUT(float3, 12, 4);
CHECK_LAYOUT(float4, 16, 16);
CHECK_LAYOUT(double1, 8, 8);
CHECK_LAYOUT(double2, 16, 16);
CHECK_LAYOUT(double3, 24, 8);
CHECK_LAYOUT(double4, 32, 16);
CHECK_LAYOUT(dim3, 12, 4);

static_assert(offsetof(float4, x) == 0 && offsetof(float4, y) == 4 &&
                  offsetof(float4, z) == 8 && offsetof(float4, w) == 12,
              "float4 members");
static_assert(offsetof(double2, y) == 8, "double2 members");
static_assert(offsetof(uchar4, w) == 3, "uchar4 members");
static_assert(offsetof(dim3, z) == 8, "dim3 members");

__host__ __device__ float4 makeAll() {
  char1 C1 = make_char1(1);
  char2 C2 = make_char2(1, 2);
  char3 C3 = make_char3(1, 2, 3);
  char4 C4 = make_char4(1, 2, 3, 4);
  uchar1 UC1 = make_uchar1(1);
  uchar2 UC2 = make_uchar2(1, 2);
  uchar3 UC3 = make_uchar3(1, 2, 3);
  uchar4 UC4 = make_uchar4(1, 2, 3, 4);
  short1 S1 = make_short1(1);
  short2 S2 = make_short2(1, 2);
  short3 S3 = make_short3(1, 2, 3);
  short4 S4 = make_short4(1, 2, 3, 4);
  ushort1 US1 = make_ushort1(1);
  ushort2 US2 = make_ushort2(1, 2);
  ushort3 US3 = make_ushort3(1, 2, 3);
  ushort4 US4 = make_ushort4(1, 2, 3, 4);
  int1 I1 = make_int1(1);
  int2 I2 = make_int2(1, 2);
  int3 I3 = make_int3(1, 2, 3);
  int4 I4 = make_int4(1, 2, 3, 4);
  uint1 U1 = make_uint1(1);
  uint2 U2 = make_uint2(1, 2);
  uint3 U3 = make_uint3(1, 2, 3);
  uint4 U4 = make_uint4(1, 2, 3, 4);
  long1 L1 = make_long1(1);
  long2 L2 = make_long2(1, 2);
  long3 L3 = make_long3(1, 2, 3);
  long4 L4 = make_long4(1, 2, 3, 4);
  ulong1 UL1 = make_ulong1(1);
  ulong2 UL2 = make_ulong2(1, 2);
  ulong3 UL3 = make_ulong3(1, 2, 3);
  ulong4 UL4 = make_ulong4(1, 2, 3, 4);
  longlong1 LL1 = make_longlong1(1);
  longlong2 LL2 = make_longlong2(1, 2);
  longlong3 LL3 = make_longlong3(1, 2, 3);
  longlong4 LL4 = make_longlong4(1, 2, 3, 4);
  ulonglong1 ULL1 = make_ulonglong1(1);
  ulonglong2 ULL2 = make_ulonglong2(1, 2);
  ulonglong3 ULL3 = make_ulonglong3(1, 2, 3);
  ulonglong4 ULL4 = make_ulonglong4(1, 2, 3, 4);
  float1 F1 = make_float1(1);
  float2 F2 = make_float2(1, 2);
  float3 F3 = make_float3(1, 2, 3);
  float4 F4 = make_float4(1, 2, 3, 4);
  double1 D1 = make_double1(1);
  double2 D2 = make_double2(1, 2);
  double3 D3 = make_double3(1, 2, 3);
  double4 D4 = make_double4(1, 2, 3, 4);
  float Sum = C1.x + C2.y + C3.z + C4.w + UC1.x + UC2.y + UC3.z + UC4.w +
              S1.x + S2.y + S3.z + S4.w + US1.x + US2.y + US3.z + US4.w +
              I1.x + I2.y + I3.z + I4.w + U1.x + U2.y + U3.z + U4.w + L1.x +
              L2.y + L3.z + L4.w + UL1.x + UL2.y + UL3.z + UL4.w + LL1.x +
              LL2.y + LL3.z + LL4.w + ULL1.x + ULL2.y + ULL3.z + ULL4.w +
              F1.x + F2.y + F3.z + D1.x + D2.y + D3.z + D4.w;
  F4.x += Sum;
  return F4;
}

__host__ __device__ unsigned dims() {
  dim3 A;             // 1, 1, 1
  dim3 B(64);         // 64, 1, 1
  dim3 C(16, 16);     // 16, 16, 1
  dim3 D(8, 8, 4);
  dim3 E = make_uint3(2, 3, 4);
  uint3 F = D;
  constexpr dim3 G(32, 2);
  static_assert(G.x == 32 && G.y == 2 && G.z == 1, "dim3 defaults");
  return A.x + B.x + C.y + D.z + E.z + F.x + G.z;
}

// Vectorised copy: one 16-byte access per thread.
__global__ void copyFloat4(float4 *Out, const float4 *In, int N4) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N4) {
    float4 V = In[I];
    V.x *= 2.0f;
    Out[I] = V;
  }
}

// Array of structures holding vector members.
struct Particle {
  float3 Position;
  float3 Velocity;
  float Mass;
  int Id;
};
static_assert(sizeof(Particle) == 32, "Particle layout");

__global__ void advance(Particle *P, float Dt) {
  Particle &Q = P[blockIdx.x * blockDim.x + threadIdx.x];
  Q.Position.x += Q.Velocity.x * Dt;
  Q.Position.y += Q.Velocity.y * Dt;
  Q.Position.z += Q.Velocity.z * Dt;
}
