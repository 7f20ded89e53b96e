// A shared array declared in a header, padded by a fix-it in the header
// (test/inputs/shared-padding-macros.cu).
#pragma once
#define HALO 32
__shared__ float haloTile[HALO][HALO];
// CHECK-FIXES: {{^}}__shared__ float haloTile[HALO][HALO + 1];{{$}}
