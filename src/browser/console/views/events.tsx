import { ViewHeading } from '../ui';

export function EventsView() {
  return <ViewHeading>Events</ViewHeading>;
}
