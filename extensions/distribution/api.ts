/**
 * The published contract `oceancode/api/distribution`: the release manifest's shape, the pinned release
 * key, where versions are installed, and the service other extensions may use to verify an asset.
 */

/** The project's release key (minisign public key; extensions/distribution/release-key.pub holds the same). */
export const PINNED_RELEASE_KEY = "RWRg/mmAKCtIBuIeLtdVdLuJAH4KGFt+rYgJXueYja0mOons0Sp0xC58";
export const PINNED_RELEASE_KEY_ID = "6482B288069FE60";

export type Channel = "stable" | "next";
export const CHANNELS: readonly Channel[] = ["stable", "next"];

/** One asset of a release; `target` is `node` (or `npm`) for the platform-neutral npm tarball. */
export interface ReleaseArtifact {
  target: string;
  url: string;
  sha256: string;
  minisig: string;
}
/** manifest.json, the guide's shape. URLs may be relative to the manifest's own URL. */
export interface ReleaseManifest {
  version: string;
  channel: Channel;
  artifacts: ReleaseArtifact[];
}

/** What one verification checked. */
export interface VerifyReport {
  sha256?: string;
  keyId: string;
  trustedComment: string;
}

export interface DistributionService {
  /** Check an asset's sha256 (when expected is given) and its detached signature; throws naming what failed. */
  verifyAsset(asset: Buffer, signature: string, opts?: { expectedSha256?: string; pubkey?: string }): VerifyReport;
}

/** Error codes (the kernel's error factory) */
export const UPDATE_REFUSED = "OC_ERR_UPDATE_REFUSED";
export const UPDATE_FAILED = "OC_ERR_UPDATE_FAILED";
export const RELEASE_UNVERIFIED = "OC_ERR_RELEASE_UNVERIFIED";
export const CURRENT_LINK = "current";
/** Set in the environment of a version the launcher started: it never switches again. */
export const SWITCHED_ENV = "OC_VERSION_SWITCHED";
export const NO_SWITCH_ENV = "OC_NO_VERSION_SWITCH";

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    distribution: DistributionService;
  }
}
