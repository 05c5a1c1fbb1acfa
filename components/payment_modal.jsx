import { useEffect, useRef } from "react";
import { Box, Button, Dialog, Flex, Grid, Heading, Spinner, Tabs, Text } from "@radix-ui/themes";
import { CircleCheck, TriangleAlert } from "lucide-react";
import { rememberOpener, returnFocusToOpener } from "../dialog_focus/dialog_focus.jsx";

// The shop's payment modal (spec 1): titled Shop, with the tabs Coins and Power Gems, or one of the
// loading, success and error screens. Radix's dialog traps focus while it is open and closes on Escape;
// focus goes back to the button that opened it.
// While a card payment is checked (stage "loading" with a pollAttempt), the first check is asked for at
// once and each next one pollIntervalMs after the last answer, on the page's own clock.
export function PaymentModal({
  open,
  tab,
  stage,
  message,
  coinBundles,
  gemBundles,
  gems,
  busy,
  pollAttempt,
  pollIntervalMs,
  texts,
  onOpenChange,
  onTabChange,
  onBuyCoins,
  onBuyGems,
  onPoll,
  onOk,
}) {
  const latestPoll = useRef(onPoll);
  latestPoll.current = onPoll;
  useEffect(() => {
    if (!open || stage !== "loading" || !pollAttempt) return undefined;
    const delay = pollAttempt === 1 ? 0 : pollIntervalMs;
    const timer = setTimeout(() => latestPoll.current?.(pollAttempt), delay);
    return () => clearTimeout(timer);
  }, [open, stage, pollAttempt, pollIntervalMs]);

  // The outcome's heading is at the dialog title's level: under a page whose title (h1) is all that axe
  // counts before it while the dialog comes back after a reconnect, an h3 skipped a level.
  const screen = (icon, heading, text, screenId) => (
    <Flex direction="column" align="center" gap="3" py="5" id={screenId}>
      {icon}
      <Heading as="h2" size="5" align="center">
        {heading}
      </Heading>
      {text ? (
        <Text align="center" color="gray">
          {text}
        </Text>
      ) : null}
      <Button size="3" onClick={() => onOk?.()} id="payment-ok" style={{ minWidth: 140 }}>
        Ok
      </Button>
    </Flex>
  );

  const bundleCard = (bundle, kind) => {
    const short = kind === "coins" && gems < bundle.price;
    // The button's name starts with its visible words (WCAG 2.5.3), then names the package.
    const action = kind === "coins" ? texts.buy : texts.pay_by_card;
    return (
      <Box
        key={bundle.id}
        className={`bundle-card bundle-${kind}`}
        id={`bundle-${bundle.id}`}
        p="3"
        style={{ border: "1px solid var(--gray-a6)", borderRadius: 10, textAlign: "center" }}
      >
        <Text as="p" size="5" weight="bold" style={{ whiteSpace: "nowrap" }}>
          {bundle.reward_label}
        </Text>
        <Text as="p" size="2" color="gray" mb="2">
          {bundle.price_label}
        </Text>
        {short ? (
          <Text as="p" size="2" color="red" weight="bold" className="not-enough-gems">
            {texts.not_enough_gems}
          </Text>
        ) : (
          <Button
            size="2"
            disabled={busy}
            onClick={() => (kind === "coins" ? onBuyCoins?.(bundle.id) : onBuyGems?.(bundle.id))}
            aria-label={`${action}: ${bundle.reward_label} for ${bundle.price_label}`}
          >
            {action}
          </Button>
        )}
      </Box>
    );
  };

  let body;
  if (stage === "loading") {
    body = (
      <Flex direction="column" align="center" gap="3" py="6" id="payment-loading">
        <Spinner size="3" />
        <Text role="status" align="center" id="payment-wait">
          {message}
        </Text>
      </Flex>
    );
  } else if (stage === "success") {
    body = screen(
      <CircleCheck size={48} color="var(--green-9)" aria-hidden="true" />,
      texts.congratulations,
      message,
      "payment-success",
    );
  } else if (stage === "error") {
    body = screen(<TriangleAlert size={48} color="var(--red-9)" aria-hidden="true" />, texts.failed, "", "payment-error");
  } else {
    body = (
      <Tabs.Root value={tab} onValueChange={(value) => onTabChange?.(value)}>
        <Tabs.List>
          <Tabs.Trigger value="coins" id="payment-tab-coins">
            Coins
          </Tabs.Trigger>
          <Tabs.Trigger value="gems" id="payment-tab-gems">
            Power Gems
          </Tabs.Trigger>
        </Tabs.List>
        <Box pt="4">
          <Tabs.Content value="coins">
            <Grid columns={{ initial: "1", sm: "3" }} gap="3">
              {coinBundles.map((bundle) => bundleCard(bundle, "coins"))}
            </Grid>
          </Tabs.Content>
          <Tabs.Content value="gems">
            <Grid columns={{ initial: "1", sm: "3" }} gap="3">
              {gemBundles.map((bundle) => bundleCard(bundle, "gems"))}
            </Grid>
          </Tabs.Content>
        </Box>
      </Tabs.Root>
    );
  }

  return (
    <Dialog.Root open={open} onOpenChange={(value) => onOpenChange?.(value)}>
      <Dialog.Content
        maxWidth="600px"
        id="payment-modal"
        aria-describedby={undefined}
        data-stage={stage}
        data-poll-attempt={pollAttempt}
        onOpenAutoFocus={rememberOpener}
        onCloseAutoFocus={returnFocusToOpener}
      >
        <Flex justify="between" align="center" mb="3">
          <Dialog.Title mb="0">{texts.title}</Dialog.Title>
          <Dialog.Close>
            <Button variant="ghost" color="gray" aria-label="Close" id="payment-close">
              ✕
            </Button>
          </Dialog.Close>
        </Flex>
        {body}
      </Dialog.Content>
    </Dialog.Root>
  );
}
