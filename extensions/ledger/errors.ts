/** The ledger extension's coded errors (each defined once here). */
import { defineError } from "../../kernel/api.js";

/** A transcript section that does not parse as a row (caught where it is read: the section is listed as unreadable). */
export const TranscriptUnreadable = defineError("ledger", "OC_ERR_LEDGER_TRANSCRIPT_UNREADABLE", "a transcript section does not read as a row");
export const JournalEntryUnknown = defineError("ledger", "OC_ERR_LEDGER_JOURNAL_ENTRY", "journal: no entry '{id}'");
