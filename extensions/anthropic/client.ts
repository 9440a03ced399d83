/**
 * The SDK's own client with only the resource this provider calls. `@anthropic-ai/sdk`'s default
 * export attaches every API resource (beta, organization, files, skills…): about 1.1 MB to load and
 * compile on each start. BaseAnthropic is the same client (auth, retries, streaming, errors) without
 * them, so a bundle of this provider carries about a third of that.
 */
import { BaseAnthropic } from "@anthropic-ai/sdk/client";
import { Messages } from "@anthropic-ai/sdk/resources/messages";

export class MessagesClient extends BaseAnthropic {
  messages: Messages = new Messages(this);
}
