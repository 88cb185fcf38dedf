// A WARC file as the user knows it, for the warnings said once its reading is
// done (the cut captures): a list's download by its URL, asked while it is the
// file read (the temporary file is gone after); a file as given, as it is.
import { WarcFiles } from '../bulk/sources/warc/warc-list.js';

export function named(files: readonly string[] | WarcFiles | undefined): ((file: string) => string) | undefined {
  return files instanceof WarcFiles ? (file) => files.named(file) : undefined;
}
