/**
 * oceancode/testing: the conformance suites of oceancode's published contracts. Run them with vitest
 * (a peer dependency) against your implementation:
 *
 *   import { describeProviderContract } from "oceancode/testing";
 *   describeProviderContract("my-provider", async () => ({ provider, model: "m", arrange(s) { ... } }));
 */
export { describeProviderContract, type ProviderFixture, type ProviderScenario } from "./provider.js";
export { describeStorageContract, type StorageFixture, type StorageHarness } from "./storage.js";
export { describeToolContract, toolContext, type ToolFixture } from "./tool.js";
export { describeEngineContract, type EngineFixture } from "./engine.js";
export { PROVIDER_ERROR_CODES, providerErrorCode, testContext, tempDir, type ProviderErrorCode, type TestContext, type TestContextOptions } from "./common.js";
