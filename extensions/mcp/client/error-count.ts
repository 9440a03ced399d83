/**
 * MCP failures of this process, counted where they happen (the connection), read by McpService.errorCounts
 * (the metrics extension's oceancode_mcp_errors_total). Plain numbers: counting costs nothing.
 */
export const mcpErrorCounts = { connect: 0, disconnect: 0, call: 0 };
