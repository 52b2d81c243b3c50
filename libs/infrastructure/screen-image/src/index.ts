/** Public API of the sharp screen image encoder; the other modules of this folder are its internals. */
export { SharpScreenImageEncoder } from './sharp-screen-image-encoder';
