#!/usr/bin/env python3
"""A grammar-based generator of CUDA programs: random kernels of the shapes
real code has (coalesced, strided, transposed, swizzled, broadcast and
masked indices over threadIdx, blockIdx, loop counters and scalar
arguments; __shared__ tiles with and without padding; guards; loops with
constant trip counts; vector and narrow element types; atomics), each
launched once from main with its launch shape and arguments written as host
code writes them (literals, dim3 fields, variables assigned after their
declaration, a host function's parameters), so that every value an address
depends on is known at the launch and warpcheck's numbers are claims the
H200 can check.

    kernel_generator.py --seed S [--kernels N] -o gen-S.cu

The same seed writes the same program (Python's random.Random, seeded). A
program is made to be run: every index is reduced into its buffer (a mask
or a modulus at the end), every value read is used by the kernel's final
store (so that nvcc removes nothing), and the buffers are 20 MiB each.

Used twice (docs/reliability.md, "Generated kernels"):
 - test/inputs/generated/ holds programs of fixed seeds, measured on the
   H200 (test/hw/generated/) and compared in CI as the other test inputs;
 - kernel_fuzz.py generates fresh ones and checks what must hold of any
   report through both front doors.
"""
import argparse
import random
import sys

ELEMENTS_LOG2 = 20          # 1 Mi elements of at most 20 bytes: 20 MiB
BUFFER_BYTES = 20 << 20

# (name, bytes, how a value of it becomes a float, how a float becomes it)
TYPES = [
    ("float", 4, "{}", "{}"),
    ("float", 4, "{}", "{}"),
    ("int", 4, "(float){}", "(int){}"),
    ("double", 8, "(float){}", "(double){}"),
    ("short", 2, "(float){}", "(short){}"),
    ("unsigned char", 1, "(float){}", "(unsigned char){}"),
    ("float2", 8, "({0}.x + {0}.y)", "make_float2({0}, {0})"),
    ("float4", 16, "({0}.x + {0}.y + {0}.z + {0}.w)", "make_float4({0}, {0}, {0}, {0})"),
]

# Arrays of structures, read and written one field at a time (what the
# cuda-aos-layout check looks for): (name, bytes, fields as (name, offset,
# bytes, type)). Their declarations open the program (STRUCTS_SOURCE).
STRUCTS = [
    ("Rec3", 12, [("a", 0, 4, "float"), ("b", 4, 4, "float"), ("c", 8, 4, "float")]),
    ("Rec5", 20, [("a", 0, 4, "float"), ("b", 4, 4, "float"), ("c", 8, 4, "float"),
                  ("d", 12, 4, "float"), ("e", 16, 4, "float")]),
    ("RecMixed", 16, [("w", 0, 8, "double"), ("n", 8, 4, "int"), ("f", 12, 4, "float")]),
]
STRUCTS_SOURCE = [
    "struct Rec3 { float a, b, c; };",
    "struct Rec5 { float a, b, c, d, e; };",
    "struct RecMixed { double w; int n; float f; };",
]

BLOCKS = [(32, 1), (64, 1), (128, 1), (256, 1), (96, 1), (48, 1), (100, 1), (16, 16),
          (32, 4), (8, 8), (4, 32), (64, 4), (32, 32), (16, 4)]

SHARED_COLUMNS = [32, 33, 64, 65, 16, 17, 8, 40, 48]
# The element of a __shared__ tile: 4 bytes most often, and the 8- and
# 16-byte ones that are served in passes of half and quarter warps.
TILE_TYPES = [TYPES[0], TYPES[0], TYPES[0], TYPES[3], TYPES[6], TYPES[7]]


class Access:
    """One memory access a kernel makes, as kernel_fuzz.py's reference reads
    it: its line (counted from the kernel's first body line until program()
    places it), the element index and the guard as C expressions over
    tx, ty, bx, by, nx (blockDim.x), p, S (the template argument), i, j and
    the kernel's __device__ function (Kernel.helper) (unsigned: evaluated
    modulo 2^32; the guard of an else arm in Python's `not`), the trip
    counts of its loops over i and j, outermost first (None outside one)."""

    def __init__(self, line, space, op, element, bytes_per_lane, guard, loop_trips,
                 stride=None, offset=0):
        self.line, self.space, self.op = line, space, op
        self.element, self.bytes_per_lane = element, bytes_per_lane
        self.guard, self.loop_trips = guard, loop_trips
        # A lane's byte address: element * stride + offset (a field of an
        # array of structures; the element's own size otherwise).
        self.stride = stride or bytes_per_lane
        self.offset = offset


class Kernel:
    def __init__(self, rng, name):
        self.rng = rng
        self.name = name
        self.block = rng.choice(BLOCKS)
        self.grid = rng.choice([1, 2, 4, 8, 13])
        self.grid_y = rng.choice([1, 1, 1, 2, 3])
        # A template argument the index may use, written at the launch.
        self.template = rng.choice([1, 2, 4, 8, 16, 32, 33]) if rng.random() < 0.3 else None
        self.p = rng.choice([0, 1, 2, 3, 5, 7, 8, 16, 31, 32, 33, 64, 100])
        self.type = rng.choice(TYPES)
        # Some kernels read and write arrays of structures instead.
        self.record = rng.choice(STRUCTS) if rng.random() < 0.2 else None
        if self.record:
            self.type = (self.record[0], self.record[1], None, None)
        self.lines = []
        self.accesses = []
        self.loop_var = None
        self.loop_trips = None
        self.guard = None
        self.shared = None
        self.vars = ["tx", "bx", "p", "nx"] + (["ty"] if self.block[1] > 1 else []) + \
            (["by"] if self.grid_y > 1 else []) + (["S"] if self.template else [])
        # A __device__ function some indices go through: (name, its body
        # over 'a' and 'b').
        self.helper = None
        if rng.random() < 0.3:
            saved, self.vars = self.vars, ["a", "b"]
            self.helper = (name + "_index", self.expr(2))
            self.vars = saved

    # -- index expressions -------------------------------------------------
    def const(self, lo=1, hi=64):
        return self.rng.choice([1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 32, 33, 63, 64, 65,
                                lo, hi, self.rng.randint(lo, hi)])

    def atom(self):
        names = list(self.vars)
        if self.loop_var:
            names += [self.loop_var] * 2
        if "tx" in names:
            names += ["tx", "tx"]
        return self.rng.choice(names)

    def expr(self, depth):
        """An unsigned index expression, parenthesised (C's precedence of
        `&`, `^` and `<<` below `+` and `<` is no part of the test)."""
        if depth <= 0:
            return self.atom()
        return "(%s)" % self.compound(depth)

    def compound(self, depth):
        r = self.rng
        kind = r.choice(["lin", "lin", "lin", "mul", "div", "mod", "and", "xor", "shr",
                         "shl", "add"] + (["pattern"] * 3 if "tx" in self.vars else []))
        a = self.expr(depth - 1)
        if kind == "lin":
            return "%s * %du + %s" % (a, self.const(1, 130), self.expr(depth - 1))
        if kind == "mul":
            return "%s * %du" % (a, self.const(1, 130))
        if kind == "div":
            return "%s / %du" % (a, self.const(1, 64))
        if kind == "mod":
            return "%s %% %du" % (a, self.const(1, 64))
        if kind == "and":
            return "%s & %du" % (a, r.choice([1, 3, 7, 15, 31, 63, 0xf0, 0x3c, 0x55]))
        if kind == "xor":
            return "%s ^ %du" % (a, r.choice([1, 2, 4, 16, 31, 5]))
        if kind == "shr":
            return "%s >> %du" % (a, r.randint(1, 5))
        if kind == "shl":
            return "%s << %du" % (a, r.randint(1, 5))
        if kind == "add":
            return "%s + %s" % (a, self.expr(depth - 1))
        # The patterns of real kernels.
        bdx = self.block[0]
        return r.choice([
            "bx * %du + tx" % (bdx * self.block[1]),
            "(bx * %du + tx) * %du" % (bdx, r.choice([2, 3, 4, 8, 16, 32, 33])),
            "tx * %du + %s" % (r.choice([16, 32, 33, 64, 65, 128, 1024]), self.atom()),
            "(tx %% %du) * %du + tx / %du" % (r.choice([2, 4, 8, 16, 32]),
                                               r.choice([32, 33, 64]), r.choice([2, 4, 8, 16, 32])),
            "(tx ^ (tx >> %du)) + bx * %du" % (r.randint(1, 4), bdx),
            "bx * %du" % r.choice([1, 32, 256]),
            "p * %du + tx" % r.choice([1, 32, 64]),
            "tx + p",
            "(tx + %s) * p" % self.atom(),
        ])

    def index_expr(self):
        """An index expression, sometimes through the kernel's __device__
        function: (its text in the code, the same for the reference)."""
        e = self.expr(self.rng.choice([0, 1, 1, 2, 2, 3]))
        if self.helper and self.rng.random() < 0.5:
            e = "%s(%s, %s)" % (self.helper[0], e, self.expr(self.rng.choice([0, 1])))
        return e

    def global_index(self, indent):
        """A global element index: (the code's, the reference's). Some go
        through a local variable declared on the line before."""
        e = self.index_expr()
        reduced = ("%s & %du" % (e, (1 << ELEMENTS_LOG2) - 1) if self.rng.random() < 0.5
                   else "%s %% %du" % (e, 1 << ELEMENTS_LOG2))
        if self.rng.random() < 0.3:
            local = "j%d" % len(self.lines)
            self.emit("unsigned %s = %s;" % (local, reduced), indent)
            return local, reduced
        return reduced, reduced

    # -- statements --------------------------------------------------------
    def emit(self, text, indent):
        self.lines.append("  " * indent + text)

    def access(self, space, op, element, bytes_per_lane, stride=None, offset=0):
        """Records the access of the line about to be emitted: what
        kernel_fuzz.py's reference computes the warp's requests from."""
        self.accesses.append(Access(len(self.lines), space, op, element, bytes_per_lane,
                                    self.guard, self.loop_trips, stride, offset))

    def load_global(self, indent):
        t, size, to_float, _ = self.type
        index, element = self.global_index(indent)
        array = "in"
        if self.rng.random() < 0.2:
            # A row pointer: `const T *row = in + offset; row[i]`, both
            # halves kept below 2^19 so that the sum stays in the buffer.
            half = (1 << (ELEMENTS_LOG2 - 1)) - 1
            start = "%s & %du" % (self.index_expr(), half)
            array = "row%d" % len(self.lines)
            self.emit("const %s *%s = in + (%s);" % (t, array, start), indent)
            index = element = "%s & %du" % (self.index_expr(), half)
            element = "(%s) + (%s)" % (start, element)
        if self.record:
            field, offset, fsize, ftype = self.rng.choice(self.record[2])
            self.access("global", "load", element, fsize, size, offset)
            self.emit("%s v%d = %s[%s].%s;" % (ftype, len(self.lines), array, index, field),
                      indent)
            self.emit("acc += (float)v%d;" % (len(self.lines) - 1), indent)
            return
        self.access("global", "load", element, size)
        self.emit("%s v%d = %s[%s];" % (t, len(self.lines), array, index), indent)
        name = "v%d" % (len(self.lines) - 1)
        self.emit("acc += %s;" % to_float.format(name), indent)

    def store_global(self, indent, index=None):
        _, size, _, from_float = self.type
        if index is None:
            index, element = self.global_index(indent)
        else:
            element = index
        if self.record:
            field, offset, fsize, ftype = self.rng.choice(self.record[2])
            self.access("global", "store", element, fsize, size, offset)
            self.emit("out[%s].%s = (%s)acc;" % (index, field, ftype), indent)
            return
        self.access("global", "store", element, size)
        self.emit("out[%s] = %s;" % (index, from_float.format("acc")), indent)

    def atomic(self, indent):
        index, element = self.global_index(indent)
        self.access("global", "atomic", element, 4)
        if self.rng.random() < 0.5:
            self.emit("atomicAdd(&counts[%s], 1u);" % index, indent)
        else:
            self.emit("atomicAdd(&sums[%s], acc);" % index, indent)

    def tile_index(self):
        """`tile[r][c]`'s subscripts, and its element as one expression."""
        rows, cols = self.shared
        r, c = self.index_expr(), self.expr(self.rng.choice([0, 1, 2]))
        row, col = "%s & %du" % (r, rows - 1), "%s %% %du" % (c, cols)
        return "[%s][%s]" % (row, col), "(%s) * %du + (%s)" % (row, cols, col)

    def shared_round(self, indent):
        _, size, to_float, from_float = self.tile_type
        subscripts, element = self.tile_index()
        self.access("shared", "store", element, size)
        self.emit("tile%s = %s;" % (subscripts, from_float.format("acc")), indent)
        self.emit("__syncthreads();", indent)
        subscripts, element = self.tile_index()
        self.access("shared", "load", element, size)
        # A vector is read once into a variable, then its fields are summed.
        self.emit("{ %s w = tile%s; acc += %s; }" % (self.tile_type[0], subscripts,
                                                    to_float.format("w")), indent)
        self.emit("__syncthreads();", indent)

    def statement(self, indent):
        choices = ["load", "load", "load", "store", "atomic"]
        if self.shared:
            choices += ["shared", "shared", "shared"]
        kind = self.rng.choice(choices)
        if kind == "load":
            self.load_global(indent)
        elif kind == "store":
            self.store_global(indent)
        elif kind == "atomic":
            self.atomic(indent)
        else:
            self.shared_round(indent)

    def body(self):
        r = self.rng
        if r.random() < 0.5:
            self.shared = (r.choice([1, 2, 4, 8, 32]), r.choice(SHARED_COLUMNS))
            self.tile_type = r.choice(TILE_TYPES)
            self.emit("__shared__ %s tile[%d][%d];" % ((self.tile_type[0],) + self.shared), 1)
        if self.shared:
            self.shared_round(1)
        for _ in range(r.randint(1, 4)):
            form = r.choice(["plain", "plain", "loop", "guard"])
            if form == "plain":
                self.statement(1)
            elif form == "loop":
                trips = r.choice([2, 3, 4, 8])
                unroll = r.choice(["", "", "#pragma unroll 1", "#pragma unroll"])
                if unroll:
                    self.emit(unroll, 1)
                self.emit("for (unsigned i = 0; i < %du; ++i) {" % trips, 1)
                self.loop_var, self.loop_trips = "i", [trips]
                saved, self.shared = self.shared, None  # no barrier inside a loop
                if r.random() < 0.3:
                    # A loop inside it, over j.
                    inner = r.choice([2, 3, 4])
                    self.emit("for (unsigned j = 0; j < %du; ++j) {" % inner, 2)
                    self.loop_var, self.loop_trips = "j", [trips, inner]
                    self.vars.append("i")
                    self.statement(3)
                    self.vars.pop()
                    self.emit("}", 2)
                else:
                    self.statement(2)
                self.shared = saved
                self.loop_var, self.loop_trips = None, None
                self.emit("}", 1)
            else:
                bound = r.choice([1, 7, 16, 31, 48, 100])
                guard = r.choice(["tx", "tx %% %du" % r.choice([8, 32, 64]), "(tx * 3u) & 63u"])
                self.emit("if ((%s) < %du) {" % (guard, bound), 1)
                self.guard = "(%s) < %d" % (guard, bound)
                saved, self.shared = self.shared, None
                self.statement(2)
                if r.random() < 0.4:
                    # The other arm: the lanes the guard leaves out.
                    self.emit("} else {", 1)
                    self.guard = "not ((%s) < %d)" % (guard, bound)
                    self.statement(2)
                self.shared = saved
                self.guard = None
                self.emit("}", 1)
        # Every value read reaches memory.
        self.store_global(1, "((by * %du + bx) * %du + ty * %du + tx) & %du" % (
            self.grid, self.block[0] * self.block[1], self.block[0], (1 << ELEMENTS_LOG2) - 1))

    def source(self):
        self.body()
        t = self.type[0]
        head = []
        if self.helper:
            head.append("__device__ __forceinline__ unsigned %s(unsigned a, unsigned b) "
                        "{ return %s; }" % self.helper)
        head += ["// block (%d, %d, 1), grid (%d, %d, 1), p = %d%s" % (
                     self.block[0], self.block[1], self.grid, self.grid_y, self.p,
                     ", S = %d" % self.template if self.template else ""),
                 "%s__global__ void %s(const %s *in, %s *out, unsigned *counts, float *sums, "
                 "unsigned p) {" % ("template <unsigned S> " if self.template else "",
                                    self.name, t, t),
                 "  unsigned tx = threadIdx.x, ty = threadIdx.y, bx = blockIdx.x, "
                 "by = blockIdx.y, nx = blockDim.x;",
                 "  float acc = 0.0f;"]
        # Where the body's first line is, counted from the text's first.
        self.body_offset = len(head)
        return "\n".join(head + self.lines + ["}", ""])

    def launch(self):
        """The kernel's launch in main (a block of statements), and the host
        function it goes through, if any ('' otherwise). The shape and 'p'
        are written as real host code writes them: literals at the launch,
        dim3 fields set one by one, variables assigned after their
        declaration, a host function's parameters bound at its call."""
        t = self.type[0]
        callee = self.name + ("<%du>" % self.template if self.template else "")
        arguments = "((const %s *)in, (%s *)out, counts, sums, %%s);" % (t, t)
        bx, by = self.block
        form = self.rng.choice(["literal", "literal", "fields", "assigned", "host_function"])
        if form == "literal":
            return "  %s<<<dim3(%du, %du, 1u), dim3(%du, %du, 1u)>>>%s" % (
                callee, self.grid, self.grid_y, bx, by, arguments % ("%du" % self.p)), ""
        if form == "fields":
            return "\n".join([
                "  {",
                "    dim3 threads, blocks;",
                "    threads.x = %du;" % bx,
                "    threads.y = %du;" % by,
                "    blocks.x = %du;" % self.grid,
                "    blocks.y = %du;" % self.grid_y,
                "    %s<<<blocks, threads>>>%s" % (callee, arguments % ("%du" % self.p)),
                "  }"]), ""
        if form == "assigned":
            return "\n".join([
                "  {",
                "    unsigned width, height, scalar;",
                "    width = %du;" % bx,
                "    height = %du;" % by,
                "    scalar = %du;" % self.p,
                "    %s<<<dim3(%du, %du), dim3(width, height)>>>%s" % (
                    callee, self.grid, self.grid_y, arguments % "scalar"),
                "  }"]), ""
        host = "launch_" + self.name
        function = "\n".join([
            "static void %s(char *in, char *out, unsigned *counts, float *sums, unsigned width,"
            " unsigned height, unsigned scalar) {" % host,
            "  dim3 threads(width, height);",
            "  %s<<<dim3(%du, %du), threads>>>%s" % (callee, self.grid, self.grid_y,
                                                     arguments % "scalar"),
            "}",
            ""])
        return "  %s(in, out, counts, sums, %du, %du, %du);" % (host, bx, by, self.p), function


def program(seed, count):
    """The program's text, and its Kernel objects (their accesses placed)."""
    rng = random.Random(seed)
    kernels = [Kernel(rng, "gen%d_%d" % (seed, n)) for n in range(count)]
    parts = [
        "// Generated by test/fuzz/kernel_generator.py --seed %d --kernels %d: do not edit." % (
            seed, count),
        "// Every kernel is launched once, with the launch shape and the argument 'p'",
        "// written at its launch, so that every address is known to warpcheck.",
        "#include <cuda_runtime.h>",
        "",
    ] + STRUCTS_SOURCE + [""]
    for k in kernels:
        text = k.source()
        first_line = sum(p.count("\n") + 1 for p in parts) + 1
        for a in k.accesses:
            a.line += first_line + k.body_offset
        parts.append(text)
    parts += [
        "int main() {",
        "  char *in, *out;",
        "  unsigned *counts;",
        "  float *sums;",
        "  cudaMalloc(&in, %du);" % BUFFER_BYTES,
        "  cudaMalloc(&out, %du);" % BUFFER_BYTES,
        "  cudaMalloc(&counts, %du);" % BUFFER_BYTES,
        "  cudaMalloc(&sums, %du);" % BUFFER_BYTES,
        "  cudaMemset(in, 0, %du);" % BUFFER_BYTES,
    ]
    launches = [k.launch() for k in kernels]
    # The host functions that launch (after every kernel: no kernel line
    # moves), then main.
    main_at = parts.index("int main() {")
    parts[main_at:main_at] = [function for _, function in launches if function]
    parts += [statements for statements, _ in launches]
    parts += [
        "  cudaDeviceSynchronize();",
        "  cudaFree(in);",
        "  cudaFree(out);",
        "  cudaFree(counts);",
        "  cudaFree(sums);",
        "  return 0;",
        "}",
        "",
    ]
    return "\n".join(parts), kernels


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--kernels", type=int, default=20)
    ap.add_argument("-o", "--output", help="the .cu file to write (default: stdout)")
    args = ap.parse_args()
    text, _ = program(args.seed, args.kernels)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
