// The date inputs and their styles, loaded on first use (see lazy-dates.tsx).
import '@mantine/dates/styles.css';

export { DatePickerInput, DateTimePicker } from '@mantine/dates';
