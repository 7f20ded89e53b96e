"""A program's nvcc arguments for a compile that chooses its own architecture
and output: the ground-truth compiles of bench/realcode.py and the compiles
test/hw/scripts/pack_corpus.py plans for the GPU machine."""

# nvcc's architecture and output options (nvcc --help), each given with its
# value as the next argument or after '='.
ARCH_FLAGS_WITH_VALUE = {"-arch", "--gpu-architecture", "-code", "--gpu-code",
                         "-gencode", "--generate-code", "-o", "--output-file"}
ARCH_FLAG_PREFIXES = ("-arch=", "--gpu-architecture=", "-code=", "--gpu-code=",
                      "-gencode=", "--generate-code=", "-o=", "--output-file=")


def nvcc_args_without(args, dropped):
    """args less the architecture and output flags (with their values) and
    the flags in dropped."""
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ARCH_FLAGS_WITH_VALUE:
            skip = True
            continue
        if a.startswith(ARCH_FLAG_PREFIXES) or a in dropped:
            continue
        out.append(a)
    return out
