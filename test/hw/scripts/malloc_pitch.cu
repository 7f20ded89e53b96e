// What cudaMallocPitch returns as the pitch on this device, per requested
// width and height (test/hw/malloc_pitch.txt holds the H200's answers).
#include <cstdio>
#include <cuda_runtime.h>
int main() {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("name %s texturePitchAlignment %zu textureAlignment %zu\n", p.name, p.texturePitchAlignment, p.textureAlignment);
  size_t widths[] = {1, 4, 31, 32, 100, 127, 128, 129, 255, 256, 400, 511, 512, 513, 1000, 1024, 2048, 2052, 4000, 4096, 8192, 10000};
  size_t heights[] = {1, 7, 64, 1024};
  for (size_t w : widths)
    for (size_t h : heights) {
      void *ptr; size_t pitch = 0;
      cudaError_t e = cudaMallocPitch(&ptr, &pitch, w, h);
      printf("width %zu height %zu pitch %zu err %d\n", w, h, pitch, (int)e);
      cudaFree(ptr);
    }
  return 0;
}
