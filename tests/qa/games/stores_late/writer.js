// The "stores_late" game's workers: real timers (QA's fake clock does not reach workers), so they go on
// writing after QA's check of the game is over. A dedicated worker tells its page to write web storage
// and writes IndexedDB and Cache Storage itself; the shared worker writes IndexedDB.
let n = 0;
const ports = [];
onconnect = (e) => { ports.push(e.ports[0]); };
function idb(name) {
  return new Promise((done) => {
    const q = indexedDB.open(name, 1);
    q.onupgradeneeded = () => q.result.createObjectStore("s");
    q.onsuccess = () => { const tx = q.result.transaction("s", "readwrite"); tx.objectStore("s").put(n, "n");
                          tx.oncomplete = tx.onerror = () => { q.result.close(); done(); }; };
    q.onerror = () => done();
  });
}
setInterval(async () => {
  n++;
  if (typeof postMessage === "function" && !ports.length) postMessage(n);
  await idb(ports.length ? "shared" : "dedicated");
  if (self.caches) { const c = await caches.open("late"); await c.put("/n", new Response(String(n))); }
}, 20);
