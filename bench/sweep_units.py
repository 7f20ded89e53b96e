"""Generated CUDA translation units for bench/sweep.py, written from scratch:
random combinations of the constructs warpcheck's test inputs exercise
(index expressions in one to three dimensions, strides and transposes,
guards, loops with bounds from parameters, grid-stride loops, shared tiles
padded or not, templates, device functions and recursion, structs read as
arrays of structs, atomics, warp shuffles, local arrays, switch, data-
dependent indices, launches with dim3 and in host loops, annotations). A
seed makes the same units again."""
import random

KERNEL_TEMPLATES = [
    # (name, parameters, body); {S} a stride, {N} a size, {T} a tile
    ("strided", "const float *in, float *out, int n",
     "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "  if (i < n) out[i] = in[i * {S}];"),
    ("transpose", "const float *in, float *out",
     "int x = blockIdx.x * {T} + threadIdx.x, y = blockIdx.y * {T} + threadIdx.y;\n"
     "  out[x * {N} + y] = in[y * {N} + x];"),
    ("tiled", "const float *in, float *out",
     "__shared__ float tile[{T}][{T}{PAD}];\n"
     "  int x = blockIdx.x * {T} + threadIdx.x, y = blockIdx.y * {T} + threadIdx.y;\n"
     "  tile[threadIdx.y][threadIdx.x] = in[y * {N} + x];\n"
     "  __syncthreads();\n"
     "  out[x * {N} + y] = tile[threadIdx.x][threadIdx.y];"),
    ("reduce", "const int *in, int *out",
     "__shared__ int s[{B}];\n"
     "  unsigned t = threadIdx.x;\n"
     "  s[t] = in[blockIdx.x * {B} + t];\n"
     "  __syncthreads();\n"
     "  for (unsigned k = 1; k < {B}; k *= 2) {{\n"
     "    if (t % (2 * k) == 0) s[t] += s[t + k];\n"
     "    __syncthreads();\n"
     "  }}\n"
     "  if (t == 0) out[blockIdx.x] = s[0];"),
    ("gridstride", "const double *in, double *out, long n",
     "for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n;\n"
     "       i += (long)blockDim.x * gridDim.x)\n"
     "    out[i] = 2.0 * in[(i * {S}) % n];"),
    ("aos", "const Particle *p, float *out",
     "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "  out[i] = p[i].x + p[i].{F} * {S};"),
    ("atomic", "const int *keys, int *hist",
     "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "  atomicAdd(&hist[keys[i] % {N}], 1);\n"
     "  atomicAdd(&hist[{N} + threadIdx.x % {S}], 1);"),
    ("shuffle", "const float *in, float *out",
     "float v = in[blockIdx.x * blockDim.x + threadIdx.x];\n"
     "  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);\n"
     "  if ((threadIdx.x & 31) == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = v;"),
    ("local", "const int *in, int *out, int m",
     "int a[{L}];\n"
     "  for (int k = 0; k < {L}; ++k) a[k] = in[threadIdx.x * {L} + k];\n"
     "  int s = 0;\n"
     "  for (int k = 0; k < m && k < {L}; ++k) s += a[(k * 3) % {L}];\n"
     "  out[blockIdx.x * blockDim.x + threadIdx.x] = s;"),
    ("branchy", "const int *in, int *out, int mode",
     "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "  switch (mode & 3) {{\n"
     "  case 0: out[i] = in[i]; break;\n"
     "  case 1: out[i * {S}] = in[i]; break;\n"
     "  default:\n"
     "    while (i < {N}) {{ if (in[i] < 0) break; out[i] += 1; i += {S}; }}\n"
     "  }}"),
    ("gather", "const int *idx, const float *x, float *y",
     "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "  y[i] = x[idx[i]] + x[i / {S}];"),
    ("helper", "const float *in, float *out, int w",
     "int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "  out[at(r, c, w)] = in[at(c, r, w)] * scale<{S}>(c);"),
    ("recursive", "const int *tree, int *out",
     "out[threadIdx.x] = walk(tree, threadIdx.x, {D});"),
    ("lambda", "const float *in, float *out, int n",
     "auto load = [&](int k) {{ return in[k * {S}]; }};\n"
     "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "  if (i < n) out[i] = load(i) + load(i + 1);"),
]

PRELUDE = """\
struct Particle { float x, y, z, w, m; int id; };
__device__ __forceinline__ int at(int r, int c, int w) { return r * w + c; }
template <int K> __device__ float scale(int c) { return (float)(c % K) / K; }
__device__ int walk(const int *t, int n, int d) {
  return d == 0 ? t[n & 255] : walk(t, t[n & 255] & 255, d - 1) + 1;
}
"""

BLOCK_SHAPES = {  # kernels that read threadIdx.y need a 2-D block
    "transpose": ["dim3({T}, {T})", "dim3({T}, 8)"],
    "tiled": ["dim3({T}, {T})"],
    "helper": ["dim3(16, 16)", "dim3(32, 8)"],
    "reduce": ["{B}"],
}
ARGS = {
    "const float *in, float *out, int n": "fin, fout, n",
    "const float *in, float *out": "fin, fout",
    "const int *in, int *out": "iin, iout",
    "const double *in, double *out, long n": "din, dout, (long)n",
    "const Particle *p, float *out": "parts, fout",
    "const int *keys, int *hist": "iin, iout",
    "const int *in, int *out, int m": "iin, iout, n % 7",
    "const int *in, int *out, int mode": "iin, iout, n",
    "const int *idx, const float *x, float *y": "iin, fin, fout",
    "const float *in, float *out, int w": "fin, fout, n",
    "const int *tree, int *out": "iin, iout",
}


def unit(seed):
    """The text of generated unit number seed."""
    rng = random.Random(seed)
    values = {"S": rng.choice([1, 2, 3, 4, 8, 16, 32, 33]), "N": rng.choice([256, 1024, 4096]),
              "T": rng.choice([8, 16, 32]), "PAD": rng.choice(["", " + 1"]),
              "B": rng.choice([64, 128, 256, 512]), "F": rng.choice(["y", "z", "w", "m"]),
              "L": rng.choice([4, 8, 16]), "D": rng.choice([1, 3, 8])}
    chosen = rng.sample(KERNEL_TEMPLATES, rng.randint(1, 4))
    out = ["// Generated by bench/sweep_units.py, unit %d." % seed, PRELUDE]
    launches = []
    for k, (name, params, body) in enumerate(chosen):
        kname = "%s_%d_%d" % (name, seed, k)
        templated = rng.random() < 0.2 and name not in ("reduce", "tiled")
        if rng.random() < 0.15:
            out.append("// warpcheck: block(%d)" % rng.choice([64, 128, 256]))
        head = "template <int U> " if templated else ""
        out.append("%s__global__ void %s(%s) {\n  %s\n}" %
                   (head, kname, params, body.format(**values)))
        shape = rng.choice(BLOCK_SHAPES.get(name, ["{B}", "128", "dim3(256)"])).format(**values)
        call = "%s%s<<<%s, %s>>>(%s);" % (kname, "<%d>" % values["S"] if templated else "",
                                          rng.choice(["64", "dim3(8, 8)", "(n + 255) / 256"]),
                                          shape, ARGS[params])
        launches.append(("for (int r = 0; r < 3; ++r) " if rng.random() < 0.2 else "") + call)
    out.append("int main() {\n  int n = %d;\n"
               "  float *fin, *fout; int *iin, *iout; double *din, *dout; Particle *parts;\n"
               "  cudaMalloc(&fin, n * 64); cudaMalloc(&fout, n * 64); cudaMalloc(&iin, n * 64);\n"
               "  cudaMalloc(&iout, n * 64); cudaMalloc(&din, n * 64); cudaMalloc(&dout, n * 64);\n"
               "  cudaMalloc(&parts, n * 64);\n  %s\n  return cudaDeviceSynchronize();\n}\n" %
               (values["N"] * 4, "\n  ".join(launches)))
    return "\n".join(out)
