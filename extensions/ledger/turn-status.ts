/**
 * The marker a crashed turn's transcript gets where it stops (written when the session is reopened).
 * An interrupted turn (esc esc, SIGINT) needs none from here: the engine stores its "interrupted" note row,
 * which the transcript renders where the turn stopped. The index's words for an ending are turnEndedText
 * in api.ts (exports use them too).
 */

/** The heading of a crash marker (not a row heading: rowHeadings and lastSeqIn skip it). */
export const CRASH_HEADING = "### crashed";

/** Appended to a crashed turn's transcript when its session is reopened: the turn stopped after `afterSeq`. */
export function crashMarker(afterSeq: number, reopenedAt: number): string {
  return `${CRASH_HEADING} · after seq ${afterSeq}\n\nThe process ended here (killed or crashed) before the turn finished; nothing after seq ${afterSeq} was stored. The session was reopened ${new Date(reopenedAt).toISOString()}.\n\n`;
}

export function hasCrashMarker(transcript: string, afterSeq: number): boolean {
  return transcript.includes(`${CRASH_HEADING} · after seq ${afterSeq}\n`);
}
