// Particles as structs: examples/particles.gk written in TypeScript. A struct is an interface
// of gk-typed fields, a struct value an object literal; `step_one` takes and returns a
// Particle by value, the kernel reads and writes whole structs of a Global<Particle>.
import { deviceFn, globalId, kernel, type f32, type f32x3, type Global, type i32 } from "gk";

interface Particle {
  pos: f32x3;
  vel: f32x3;
  bounces: i32;
}

const step_one = deviceFn((p: Particle, gravity: f32x3, dt: f32): Particle => {
  let q = p;
  q.vel += gravity * dt;
  q.pos += q.vel * dt;
  if (q.pos.y! < 0.0) {
    q.pos.y = -q.pos.y!;
    q.vel.y = -q.vel.y!;
    q.bounces += 1;
  }
  return q;
});

export const step = kernel((n: i32, dt: f32, gravity: f32x3, ps: Global<Particle>) => {
  const i = globalId.x;
  if (i < n) {
    ps[i] = step_one(ps[i]!, gravity, dt);
  }
});
