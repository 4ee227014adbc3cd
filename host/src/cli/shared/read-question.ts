import { readFile, stat } from 'node:fs/promises';
import { TravsrError } from '@travsr/protocol';
import { QUERY_MAX_CHARS } from '../../tools/tool-definitions.js';

/** A question `travsr ask` could not read. */
export class QuestionInputError extends TravsrError {
  override readonly name = 'QuestionInputError';
  constructor(
    readonly code: 'QUESTION_MISSING' | 'QUESTION_TWICE' | 'QUESTION_UNREADABLE',
    message: string,
  ) {
    super(message);
  }
}

/**
 * The question of `travsr ask`: the argument, or the text of `file` (`-`, or the argument `-`,
 * for standard input). A whole issue with its logs is too long for a command line (Linux takes at
 * most 128 KiB in one argument), hence the file. Reads at most a little past what get_context
 * takes, so that an endless stream ends in get_context's own clear refusal instead of filling
 * memory.
 */
export async function readQuestion(arg: string | undefined, file: string | undefined): Promise<string> {
  if (arg !== undefined && file !== undefined)
    throw new QuestionInputError('QUESTION_TWICE', 'a question as the argument and --file too: give it one way, the argument or --file');
  const source = file ?? (arg === '-' ? '-' : undefined);
  if (source === undefined) {
    if (arg !== undefined && arg.length > 0) return arg;
    throw new QuestionInputError(
      'QUESTION_MISSING',
      'no question: give it as the argument (`travsr ask "where are redirects resolved?"`), or --file <path>, or - to read standard input',
    );
  }
  let text: string;
  try {
    if (source !== '-' && (await stat(source)).size > MAX_BYTES)
      throw new QuestionInputError(
        'QUESTION_UNREADABLE',
        `${source} is larger than any question get_context takes (${QUERY_MAX_CHARS.toLocaleString('en-US')} characters); give the part that matters`,
      );
    text = source === '-' ? await readStdin() : await readFile(source, 'utf8');
  } catch (e) {
    if (e instanceof QuestionInputError) throw e;
    throw new QuestionInputError(
      'QUESTION_UNREADABLE',
      `cannot read the question from ${source === '-' ? 'standard input' : source}: ${(e as Error).message}`,
    );
  }
  if (text.trim().length === 0)
    throw new QuestionInputError('QUESTION_MISSING', `${source === '-' ? 'standard input' : source} holds no question: it is empty`);
  return text;
}

// UTF-8 takes at most four bytes a character: a longer input cannot be a question get_context takes.
const MAX_BYTES = 4 * QUERY_MAX_CHARS;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    bytes += chunk.length;
    if (bytes > MAX_BYTES) break; // enough for get_context to refuse it as too long
  }
  return Buffer.concat(chunks).toString('utf8');
}
