//===- ErrorTest.cpp - Error messages and the driver-less case ------------===//

#include "tilec/Runtime/Driver.h"
#include "tilec/Runtime/Runtime.h"

#include <gtest/gtest.h>

using namespace tilec::rt;

namespace {

TEST(Error, FormatsDriverFailuresWithTheKernel) {
  EXPECT_EQ(formatDriverError("cuLaunchKernel", "saxpy",
                              "CUDA_ERROR_INVALID_VALUE", "invalid argument"),
            "cuLaunchKernel failed for kernel 'saxpy': "
            "CUDA_ERROR_INVALID_VALUE (invalid argument)");
  EXPECT_EQ(formatDriverError("cuMemAlloc", "", "CUDA_ERROR_OUT_OF_MEMORY",
                              "out of memory"),
            "cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)");
}

TEST(Error, CarriesTheDriverResult) {
  Error e(CUDA_ERROR_INVALID_VALUE, "cuLaunchKernel", "saxpy");
  EXPECT_TRUE(e.isDriverError());
  EXPECT_EQ(e.result(), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(e.operation(), "cuLaunchKernel");
  EXPECT_EQ(e.kernel(), "saxpy");
  EXPECT_FALSE(e.cudaName().empty());
  EXPECT_FALSE(e.cudaDescription().empty());
  EXPECT_EQ(std::string(e.what()),
            formatDriverError("cuLaunchKernel", "saxpy", e.cudaName(),
                              e.cudaDescription()));
  // With a driver the names are the driver's; without one, the number.
  if (tryDriver())
    EXPECT_EQ(e.cudaName(), "CUDA_ERROR_INVALID_VALUE");
  else
    EXPECT_EQ(e.cudaName(), "CUresult 1");
}

TEST(Error, PlainErrorsAreNotDriverErrors) {
  Error e("kernel 'k': argument 0 expects scalar:f32, got scalar:i32", "k");
  EXPECT_FALSE(e.isDriverError());
  EXPECT_EQ(e.result(), CUDA_SUCCESS);
  EXPECT_EQ(e.kernel(), "k");
  EXPECT_STREQ(e.what(),
               "kernel 'k': argument 0 expects scalar:f32, got scalar:i32");
  const std::runtime_error &base = e;
  EXPECT_STREQ(base.what(), e.what());
}

TEST(Driver, DeviceCountNeverThrows) {
  int count = -1;
  EXPECT_NO_THROW(count = deviceCount());
  EXPECT_GE(count, 0);
  EXPECT_EQ(deviceCount(), count);
}

TEST(Driver, FailsWithAnErrorWhenThereIsNoDevice) {
  if (deviceCount() > 0)
    GTEST_SKIP() << "a GPU is present";
  std::string why;
  if (!tryDriver(&why)) {
    EXPECT_FALSE(why.empty());
    try {
      driver();
      FAIL() << "driver() did not throw";
    } catch (const Error &e) {
      EXPECT_EQ(std::string(e.what()), why);
    }
  }
  EXPECT_THROW(Context(0), Error);
  EXPECT_THROW(Device::get(0), Error);
  EXPECT_TRUE(Device::all().empty());
  EXPECT_EQ(driverEntryPoint("cuNoSuchFunction"), nullptr);
}

} // namespace
