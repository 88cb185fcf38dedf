// Bulk classification's errors: what the user can fix (an input that is not
// what it claims, an output that cannot be written) is a BulkError, whose
// message is one line to show as it is. The CLI maps it to its usage exit
// (src/cli/main.ts); anything else is a bug, reported with its stack.

export class BulkError extends Error {}

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
