// Parses with NO CUDA toolkit (see check-parse.sh): every bundled forwarder
// header, included together with the C++ standard library (no macro from the
// bundled headers may break libstdc++).

#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>
#include <device_functions.h>
#include <device_launch_parameters.h>
#include <driver_types.h>
#include <vector_functions.h>
#include <vector_types.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#if CUDA_VERSION < 12000 || CUDART_VERSION < 12000
#error "version macros"
#endif

__device__ int clampIndex(int I, int N) {
  assert(N > 0);
  return I < 0 ? 0 : (I >= N ? N - 1 : I);
}

template <typename T>
__global__ void fill(T *Out, T Value, int N) {
  static_assert(std::is_arithmetic<T>::value, "arithmetic only");
  int I = clampIndex(blockIdx.x * blockDim.x + threadIdx.x, N);
  Out[I] = Value + std::numeric_limits<T>::min();
  if (I == 0)
    printf("filled %d elements\n", N);
}

int main() {
  std::vector<int> V(100);
  std::iota(V.begin(), V.end(), 0);
  auto Ptr = std::make_shared<std::string>("warpcheck");
  std::cout << *Ptr << " " << std::accumulate(V.begin(), V.end(), 0) << "\n";
  int *D = nullptr;
  cudaMalloc(&D, 100 * sizeof(int));
  fill<<<1, 128>>>(D, 7, 100);
  cudaDeviceSynchronize();
  cudaFree(D);
  return 0;
}
