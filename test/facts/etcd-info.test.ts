import { describe, expect, it } from 'vitest';
import { etcdInfo } from '../../src/facts/etcd-info.js';

// Shapes of the real AWS must-gather's etcd_info/ (etcd 3.4.14): 64-bit ids, sizes in bytes.
const memberList =
  '{"header":{"cluster_id":104058909322616494,"member_id":3513545598572325380,"raft_term":8},"members":[' +
  '{"ID":3513545598572325380,"name":"ip-10-0-189-142.ec2.internal","peerURLs":["https://10.0.189.142:2380"],"clientURLs":["https://10.0.189.142:2379"]},' +
  '{"ID":13518803987065864191,"name":"ip-10-0-195-177.ec2.internal","peerURLs":["https://10.0.195.177:2380"],"clientURLs":["https://10.0.195.177:2379"]}]}';
const endpointStatus =
  '[{"Endpoint":"https://10.0.189.142:2379","Status":{"header":{"cluster_id":104058909322616494,"member_id":3513545598572325380,"revision":42542,"raft_term":8},"version":"3.4.14","dbSize":8161640448,"leader":13518803987065864191,"raftIndex":47279,"raftTerm":8,"raftAppliedIndex":47279,"dbSizeInUse":7913766912}},' +
  '{"Endpoint":"https://10.0.195.177:2379","Status":{"header":{"cluster_id":104058909322616494,"member_id":13518803987065864191,"revision":42610,"raft_term":8},"version":"3.4.14","dbSize":116129792,"leader":13518803987065864191,"raftIndex":47359,"raftTerm":8,"raftAppliedIndex":47359,"dbSizeInUse":63860736}}]';

describe('etcdInfo', () => {
  it('gives each member its endpoint status dbSize and dbSizeInUse, in bytes', () => {
    const info = etcdInfo({ 'member_list.json': memberList, 'endpoint_status.json': endpointStatus });
    expect(info?.members.map((m) => [m.name, m.dbSize, m.dbSizeInUse, m.leader])).toEqual([
      ['ip-10-0-189-142.ec2.internal', 8161640448, 7913766912, false],
      ['ip-10-0-195-177.ec2.internal', 116129792, 63860736, true],
    ]);
  });

  it('leaves the sizes unknown without endpoint_status.json', () => {
    const info = etcdInfo({ 'member_list.json': memberList });
    expect(info?.members.every((m) => m.dbSize === undefined && m.dbSizeInUse === undefined)).toBe(true);
  });
});
