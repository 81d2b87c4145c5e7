import type { SessionRevocationsRepository } from '../repositories/session-revocations.repository.js';

/** What serving an image needs of its row, and every id whose withdrawal refuses it. */
export interface ServedImage {
  id: string;
  image_key: string;
  thumbnail_key: string;
  user_id: string;
  model_id: string | null;
  generation_id: string;
  position: number;
}

/**
 * The generated images as `GET /images/generated/{id}` serves them, from memory: a row never
 * changes the keys it names, so each one is read from the database once per process. What a
 * deletion takes away is withdrawn instead: the image's id, its model's or its owner's, announced
 * to every API process by the same announced set that revokes sign-ins (under a prefix of its
 * own), and kept there as long as an image token can live, since no token outlives that.
 */
export class ServedImages {
  private readonly known = new Map<string, ServedImage>();

  constructor(
    private readonly deps: {
      findImage: (imageId: string) => Promise<ServedImage | undefined>;
      withdrawn: Pick<SessionRevocationsRepository, 'revoke' | 'isRevoked'>;
      /** Rows kept in memory at most; the oldest is forgotten first. */
      maxKnown?: number;
    },
  ) {}

  /** The image, unless it is gone or withdrawn. */
  async find(imageId: string): Promise<ServedImage | undefined> {
    let image = this.known.get(imageId);
    if (!image) {
      image = await this.deps.findImage(imageId);
      if (!image) return undefined;
      if (this.known.size >= (this.deps.maxKnown ?? 100_000))
        this.known.delete(this.known.keys().next().value!);
      this.known.set(imageId, image);
    }
    const { withdrawn } = this.deps;
    const ids = [image.id, image.generation_id, image.user_id, image.model_id];
    for (const id of ids) if (id && (await withdrawn.isRevoked(id))) return undefined;
    return image;
  }

  /**
   * Refuses the images of these ids (images, generations, models or owners) in every process;
   * resolves once every process refuses them.
   */
  async withdraw(ids: string[]): Promise<void> {
    for (const id of ids) this.known.delete(id);
    await this.deps.withdrawn.revoke(ids);
  }
}
