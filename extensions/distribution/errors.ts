/** The distribution extension's coded errors (each defined once here; the update codes are also constants in its contract). */
import { defineError } from "../../kernel/api.js";

export const UpdateRefused = defineError("distribution", "OC_ERR_UPDATE_REFUSED", "an update was refused (turned off, wrong channel, or its release failed verification)");
export const UpdateFailed = defineError("distribution", "OC_ERR_UPDATE_FAILED", "an update failed (download, install or self-check); the running version is untouched");
/** A release asset failed a check: `data.what` is which (sha256, signature, unsigned, or the key itself). */
export const ReleaseUnverified = defineError("distribution", "OC_ERR_RELEASE_UNVERIFIED", "{message}").withData<{ what: "sha256" | "signature" | "unsigned" | "key" }>();
/** A minisign key, signature or comment is malformed or does not match (verify names the check). */
export const MinisignRefused = defineError("distribution", "OC_ERR_MINISIGN", "{message}");
export const ReleaseUrlRefused = defineError("distribution", "OC_ERR_RELEASE_URL", "{message}", { hint: "release URLs are https: (or file: for a local mirror)" });
export const ReleaseDownload = defineError("distribution", "OC_ERR_RELEASE_DOWNLOAD", "{url}: {problem}");
export const ReleaseManifestInvalid = defineError("distribution", "OC_ERR_RELEASE_MANIFEST", "{message}");
export const ReleaseInstall = defineError("distribution", "OC_ERR_RELEASE_INSTALL", "{message}");
export const ReleasePack = defineError("distribution", "OC_ERR_RELEASE_PACK", "{message}");
export const VerifyUsage = defineError("distribution", "OC_ERR_VERIFY_USAGE", "{message}", { exitCode: 2 });
/** `oceancode self-check --update`: a step of the throwaway update round trip did not do what it should. */
export const SelfTestFailed = defineError("distribution", "OC_ERR_SELF_TEST", "{message}");
