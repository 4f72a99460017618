import { mkdirMethod } from "./mkdir";
import { readMethod } from "./read";
import { readBytesMethod } from "./read-bytes";
import { deleteMethod } from "./remove";
import { renameMethod } from "./rename";
import { statMethod } from "./stat";
import { treeMethod } from "./tree";
import { writeMethod } from "./write";

/** The fs.* methods, all confined to `root` (an absolute real path). */
export function fileMethods(root: string) {
  return {
    "fs.tree": treeMethod(root),
    "fs.stat": statMethod(root),
    "fs.read": readMethod(root),
    "fs.readBytes": readBytesMethod(root),
    "fs.write": writeMethod(root),
    "fs.mkdir": mkdirMethod(root),
    "fs.rename": renameMethod(root),
    "fs.delete": deleteMethod(root),
  };
}
