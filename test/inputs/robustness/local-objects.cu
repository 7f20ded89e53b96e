// Accesses made through local objects were lost or put in the wrong memory:
// a helper struct's method, a functor or a lambda was not run (its object
// lives in registers, not memory), the pointer a conversion operator hands
// out was dropped, and a shared access whose offset comes from data was
// reported as global.

// Dynamic shared memory handed out by a conversion operator.
struct SharedFloats {
  __device__ operator float *() {
    extern __shared__ float sharedFloatWords[];
    return sharedFloatWords;
  }
};

// The offset is read from memory: not known, but the array is shared.
__global__ void sharedGather(const int *idx, const float *in, float *out) {
  __shared__ float table[256];
  table[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = table[idx[threadIdx.x]];
  float *dyn = SharedFloats();
  dyn[idx[threadIdx.x] + 1] = out[threadIdx.x];
}
// EXPECT-ACCESS: table[idx[threadIdx.x]] | load | shared | status=unknown
// EXPECT-ACCESS: dyn[idx[threadIdx.x] + 1] | store | shared | status=unknown
// EXPECT-ACCESS: table[threadIdx.x] | store | shared | status=exact | wavefronts_per_request=1

// A struct whose method advances its own cursor: the value it stores in
// its object is what the next call reads.
struct Cursor {
  const float *base;
  int at;
  __device__ float next() {
    float v = base[at];
    at += 64;
    return v;
  }
};

__global__ void cursorWalk(const float *in, float *out) {
  Cursor c{in, static_cast<int>(threadIdx.x) * 2};
  float s = c.next();
  s += c.next();
  out[threadIdx.x] = s;
}
// EXPECT-ACCESS: base[at] | load | global | status=exact | sectors_per_request=8
// EXPECT-ACCESS: out[threadIdx.x] | store | global | status=exact | sectors_per_request=4

// A predicate functor guards a store: lanes below its bound store.
struct Below {
  unsigned bound;
  __device__ bool operator()(unsigned x) const { return x < bound; }
};

__global__ void predicated(float *out) {
  Below keep{16};
  if (keep(threadIdx.x))
    out[threadIdx.x * 4] = 0.0f;
}
// EXPECT-ACCESS: out[threadIdx.x * 4] | store | global | status=exact | sectors_per_request=8

// A shared pointer picked by a value read from memory: its offset is not
// known, its memory is.
__global__ void sharedChoice(const int *flag, float *out) {
  __shared__ float halves[64];
  float *p = flag[threadIdx.x] ? halves : halves + 32;
  p[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = halves[threadIdx.x];
}
// EXPECT-ACCESS: p[threadIdx.x] | store | shared | status=unknown

int main() {
  sharedGather<<<1, 256, 1024>>>(nullptr, nullptr, nullptr);
  cursorWalk<<<1, 32>>>(nullptr, nullptr);
  predicated<<<1, 32>>>(nullptr);
  sharedChoice<<<1, 32>>>(nullptr, nullptr);
}
