import type { components } from '../generated/api';

type Schemas = components['schemas'];

export type Agent = Schemas['Agent'];
export type AgentStatus = Schemas['AgentStatus'];
export type AgentCreate = Schemas['AgentCreate'];
export type AgentUpdate = Schemas['AgentUpdate'];
export type Task = Schemas['Task'];
export type TaskStatus = Schemas['TaskStatus'];
export type TaskCreate = Schemas['TaskCreate'];
export type TaskUpdate = Schemas['TaskUpdate'];
export type TaskSummary = Schemas['TaskSummary'];
export type User = Schemas['User'];
export type UserCreate = Schemas['UserCreate'];
export type UserRole = Schemas['UserRole'];
export type UserReplace = Schemas['UserReplace'];
export type UserUpdate = Schemas['UserUpdate'];
export type Post = Schemas['Post'];
export type PostCreate = Schemas['PostCreate'];
export type PostSummary = Schemas['PostSummary'];
export type TaskProgress = Schemas['TaskProgress'];
export type AgentKey = Schemas['AgentKey'];
export type AgentKeyCreate = Schemas['AgentKeyCreate'];
export type AgentKeyCreated = Schemas['AgentKeyCreated'];
export type AgentKeyScope = Schemas['AgentKeyScope'];
export type Lease = Schemas['Lease'];
export type LeaseStatus = Schemas['LeaseStatus'];
export type LeaseClaim = Schemas['LeaseClaim'];
export type LeaseUpdate = Schemas['LeaseUpdate'];
/** A user as stored: with the password hash that no response ever carries. */
export type UserRecord = User & { password_hash: string | null };
export type FleetEvent = Schemas['Event'];
export type EventType = Schemas['EventType'];
