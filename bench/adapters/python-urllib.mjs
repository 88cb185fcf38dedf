// CPython's urllib.robotparser (the standard library's parser), through bench/peers/python_driver.py:
// own process, its body decoded as RobotFileParser.read() does (strict UTF-8).
import { pythonAdapter } from '../peers/python.mjs';

export async function load() {
  return [pythonAdapter({
    engine: 'urllib',
    id: 'python-urllib',
    label: 'urllib.robotparser (CPython)',
    library: 'urllib.robotparser',
    missing: 'no python3 on the PATH (apt-get install -y python3)',
    note: 'CPython, own process',
  })];
}
