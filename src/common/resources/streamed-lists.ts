/**
 * Caps the lists streamed at once (those too long to keep, read from the database batch by
 * batch while they are sent): each holds a database cursor's worth of work and a connection
 * for as long as its client takes to read. Above `MAX_STREAMED_LISTS` the answer is 503 with
 * `Retry-After: 1`.
 */
import { Inject, Injectable } from '@nestjs/common';

import { type AppConfig, appConfig } from '../../config/app.config.js';
import { ServiceUnavailableException } from '../errors/api.exception.js';

@Injectable()
export class StreamedLists {
  private active = 0;
  private readonly max: number;

  constructor(@Inject(appConfig.KEY) config: AppConfig) {
    this.max = config.maxStreamedLists;
  }

  /** Takes a slot, or throws the 503; the returned function gives it back (once, however often called). */
  acquire(): () => void {
    if (this.active >= this.max) {
      throw new ServiceUnavailableException(1);
    }
    this.active++;
    let released = false;
    return () => {
      if (!released) {
        released = true;
        this.active--;
      }
    };
  }
}
