/**
 * The kit `oceancode/kit/engine`: the implementation engine shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/engine`, extensions/engine/api.ts).
 */
export { isAutomaticApproval, strictness } from "./kit/approval.js";
export { ModelNames, modelInfoFromEntry } from "./kit/model-names.js";
export { ProviderError, asProviderError, isClaudeCliRoute, isRetryableProviderError, providerError, providerErrorCode, providerErrorDetails, retryAfterMs } from "./kit/provider.js";
export { emptyUsage } from "./kit/rows.js";
export { discardCauseText } from "./kit/service.js";
export { isRefusal, isSessionBusy, sessionBusyError, sessionRefusedError } from "./kit/session.js";
export { SessionBusy, SessionRefused } from "./errors.js";
export { IdleWatch, idleFetch, idleTimeoutMs, printableText, withIdleWatch } from "./kit/stream-guard.js";
