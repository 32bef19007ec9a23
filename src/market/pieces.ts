/**
 * The two forms of a `changes` answer, part by part: its texts in memory (compressed once), its
 * groups as regions of the groups' files, and the CRC-32 and length of the whole for the gzip trailer.
 */
import { crc32Combine, deflatePart, GZIP_HEADER, gzipEnd, type Part } from "./chunks";
import { FILES, type GroupEntry } from "./doc-writer";
import { FileBody, type Piece } from "./file-body";

const encoder = new TextEncoder();
const COMMA = deflatePart(",");

/** Builds the two forms of a document part by part: text in memory, groups as regions of the files. */
export class PiecesBuilder {
  readonly plain: Piece[] = [];
  readonly gzip: Piece[] = [{ bytes: GZIP_HEADER }];
  crc = 0;
  plainBytes = 0;

  constructor(private readonly dir: string) {}

  text(text: string): void {
    this.part(encoder.encode(text), deflatePart(text));
  }

  part(bytes: Uint8Array, part: Part): void {
    this.plain.push({ bytes });
    this.gzip.push({ bytes: part.deflated });
    this.add(part.crc, part.plainBytes);
  }

  group(group: GroupEntry): void {
    this.plain.push({ path: `${this.dir}/${FILES.groups}`, offset: group.plainOffset, length: group.plainBytes });
    this.gzip.push({
      path: `${this.dir}/${FILES.groupsDeflate}`,
      offset: group.deflatedOffset,
      length: group.deflatedBytes,
    });
    this.add(group.crc, group.plainBytes);
  }

  groups(groups: readonly GroupEntry[]): void {
    for (const [i, group] of groups.entries()) {
      if (i > 0) this.part(COMMA_BYTES, COMMA);
      this.group(group);
    }
  }

  private add(crc: number, bytes: number): void {
    this.crc = crc32Combine(this.crc, crc, bytes);
    this.plainBytes += bytes;
  }

  body(): FileBody {
    return new FileBody(this.plain, [...this.gzip, { bytes: gzipEnd(this.crc, this.plainBytes) }]);
  }
}

const COMMA_BYTES = encoder.encode(",");
