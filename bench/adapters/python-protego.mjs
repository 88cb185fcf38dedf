// protego (Scrapy's robots.txt parser), through bench/peers/python_driver.py: own process,
// its body decoded as Scrapy does (UTF-8, errors ignored).
import { pythonAdapter } from '../peers/python.mjs';

export async function load() {
  return [pythonAdapter({
    engine: 'protego',
    id: 'python-protego',
    label: 'protego (Python, Scrapy)',
    library: 'protego',
    missing: 'no python3 with protego (apt-get install -y python3-protego, or pip install protego)',
    note: 'CPython, own process',
  })];
}
