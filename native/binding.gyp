# The in-process GPU path (addon.cpp), built by node-gyp on install (scripts/build-native.mjs)
# into native/build/Release/gk_native.node: node-gyp runs in native/, so its build/ folder is
# not the package's. It shares the launcher's driver, error, device and queue code and, like
# the launcher, loads libcuda.so.1 at run time: g++ and the Node.js headers build it, with
# no CUDA toolkit.
{
  "targets": [
    {
      "target_name": "gk_native",
      "sources": [
        "addon.cpp",
        "waits.cpp",
        "hostio.cpp",
        "../launcher/cuda_driver.cpp",
        "../launcher/device.cpp",
        "../launcher/errors.cpp",
        "../launcher/json.cpp",
        "../launcher/queues.cpp"
      ],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti", "-std=gnu++17", "-std=gnu++1y", "-std=gnu++20"],
      "cflags_cc": ["-std=c++17", "-fexceptions", "-Wall", "-Wextra", "-O2"],
      "libraries": ["-ldl", "-pthread"]
    }
  ]
}
