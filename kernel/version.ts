/** The kernel's own version; extension manifests declare a semver range against it. */
export const KERNEL_VERSION = "0.1.0";
