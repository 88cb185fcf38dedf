// Errors the user can fix: printed as one line ("robots: ..."), never a stack trace.

/** Exit code for usage and input errors (as Google's robots tool uses 2). */
export const EXIT_USAGE = 2;

export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = EXIT_USAGE) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** "permission denied" for EACCES and the like: the part of a Node error a user needs. */
export function reason(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  switch (err?.code) {
    case 'ENOENT': return 'no such file or directory';
    case 'EACCES':
    case 'EPERM': return 'permission denied';
    case 'EISDIR': return 'is a directory';
    case 'ENOTDIR': return 'not a directory';
    case 'ELOOP': return 'too many levels of symbolic links';
    case 'ENXIO': return 'no such device or address';
    case 'ENOSPC': return 'no space left on the device';
    case 'EROFS': return 'read-only file system';
    case 'EDQUOT': return 'disk quota exceeded';
    case 'EIO': return 'input/output error';
    case 'EEXIST': return 'already exists';
    case 'ENAMETOOLONG': return 'file name too long';
    case 'EMFILE':
    case 'ENFILE': return 'too many open files';
    case 'EBUSY': return 'busy';
    default: return err?.message ?? String(e);
  }
}
