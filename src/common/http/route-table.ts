/** The method-and-path pairs the controllers serve, read from their metadata once. */
import { Injectable, RequestMethod } from '@nestjs/common';
import { PATH_METADATA, METHOD_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { match, type MatchFunction } from 'path-to-regexp';

export interface Route {
  method: string;
  path: string;
}

interface PathShape {
  path: string;
  matches: MatchFunction<object>;
  methods: Set<string>;
}

@Injectable()
export class RouteTable {
  private shapes?: PathShape[];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  routes(): Route[] {
    return this.pathShapes().flatMap((shape) => [...shape.methods].map((method) => ({ method, path: shape.path })));
  }

  /** The methods served at a concrete path (HEAD wherever GET is, OPTIONS everywhere), or undefined. */
  allowedMethods(path: string): string[] | undefined {
    // path-to-regexp, like the router, allows one trailing slash and no more, and tells case.
    const shape = this.pathShapes().find((candidate) => candidate.matches(path));
    if (!shape) {
      return undefined;
    }
    const methods = [...shape.methods];
    if (shape.methods.has('GET')) {
      methods.splice(methods.indexOf('GET') + 1, 0, 'HEAD');
    }
    return [...methods, 'OPTIONS'];
  }

  private pathShapes(): PathShape[] {
    if (!this.shapes) {
      const byPath = new Map<string, PathShape>();
      for (const wrapper of this.discovery.getControllers()) {
        const instance = wrapper.instance as object | undefined;
        const metatype = wrapper.metatype;
        if (!instance || !metatype) {
          continue;
        }
        const prefixes = toArray(Reflect.getMetadata(PATH_METADATA, metatype));
        const prototype = Object.getPrototypeOf(instance) as object;
        for (const name of this.scanner.getAllMethodNames(prototype)) {
          const handler = (prototype as Record<string, unknown>)[name] as object;
          const requestMethod = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
          if (requestMethod === undefined) {
            continue;
          }
          for (const prefix of prefixes) {
            for (const suffix of toArray(Reflect.getMetadata(PATH_METADATA, handler))) {
              const path = joinPath(prefix, suffix);
              const shape = byPath.get(path) ?? {
                path,
                matches: match(path, { decode: false, sensitive: true }),
                methods: new Set<string>(),
              };
              shape.methods.add(RequestMethod[requestMethod]);
              byPath.set(path, shape);
            }
          }
        }
      }
      this.shapes = [...byPath.values()];
    }
    return this.shapes;
  }
}

function toArray(value: unknown): string[] {
  if (value === undefined) {
    return ['/'];
  }
  return Array.isArray(value) ? (value as string[]) : [value as string];
}

function joinPath(prefix: string, suffix: string): string {
  const joined = `/${[prefix, suffix]
    .map((part) => part.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/')}`;
  return joined;
}
