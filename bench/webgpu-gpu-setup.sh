#!/usr/bin/env bash
# WebGPU on the GPU machine (WEBGPU.md): its NVIDIA Vulkan driver is installed but not the
# Vulkan loader, so Debian's loader and GL dispatch libraries, downloaded into .gl/ on a
# development machine (git-ignored; the command is in WEBGPU.md), are unpacked into / here,
# and the loader is pointed at NVIDIA's driver. Source it (as root), from the repository root,
# before a WebGPU run:
#
#   source bench/webgpu-gpu-setup.sh && node bench/wgsl.mjs
#
# Dawn (node_modules/webgpu, linux-x64) then finds the GPU through Vulkan.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
debs=("$here"/.gl/*.deb)
if [ ! -e "${debs[0]}" ]; then
  echo "webgpu-gpu-setup: no .deb files in $here/.gl (download them as WEBGPU.md says)" >&2
  return 1 2>/dev/null || exit 1
fi
for f in "${debs[@]}"; do
  dpkg -x "$f" / || { echo "webgpu-gpu-setup: dpkg -x $f / failed (as root?)" >&2; return 1 2>/dev/null || exit 1; }
done
ldconfig
unset VK_ICD_FILENAMES
export VK_DRIVER_FILES="${VK_DRIVER_FILES:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}"
if [ ! -f "$VK_DRIVER_FILES" ]; then
  echo "webgpu-gpu-setup: no Vulkan driver at $VK_DRIVER_FILES (set VK_DRIVER_FILES to the NVIDIA ICD's JSON)" >&2
  return 1 2>/dev/null || exit 1
fi
echo "webgpu-gpu-setup: Vulkan loader unpacked from .gl/, VK_DRIVER_FILES=$VK_DRIVER_FILES" >&2
