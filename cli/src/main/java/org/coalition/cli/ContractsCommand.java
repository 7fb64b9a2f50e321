package org.coalition.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.coalition.api.model.ContractView;
import org.coalition.api.model.Contracts;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code coalition contracts}: the site's capacity contracts (docs/decisions/0020), as its daemon's
 * {@code /v1/contracts} gives them, and the admin's acknowledgement of one the site file holds for
 * approval ({@code contracts.approval}).
 */
@Command(name = "contracts", mixinStandardHelpOptions = true, description = "The site's capacity contracts, and the admin's acknowledgement of one.",
    subcommands = {ContractsCommand.ListContracts.class, ContractsCommand.Show.class, ContractsCommand.Acknowledge.class})
final class ContractsCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "name what to do: list, show ID, or acknowledge ID");
  }

  @Command(name = "list", mixinStandardHelpOptions = true,
      description = "The contracts of yesterday's, today's and tomorrow's slots: side, other party, price, and what each party says of it.")
  static final class ListContracts extends ClientCommands.Reader<Contracts> {
    ListContracts() {
      super(Contracts.class);
    }

    @Override
    JsonNode fetch(URI base) throws Exception {
      return ApiClient.get(base, "v1/contracts", target.readToken());
    }

    @Override
    void print(PrintWriter out, Contracts c) {
      if (c.contracts().isEmpty()) {
        out.println(c.site() + " has no contract for yesterday's, today's or tomorrow's slots");
        return;
      }
      List<List<String>> rows = new ArrayList<>();
      for (ContractView v : c.contracts()) {
        rows.add(List.of(v.slotStart() + " - " + v.slotEnd(), v.blockType(), v.side(), v.counterparty(), Output.number(v.price(), 0),
            v.phase().toLowerCase(Locale.ROOT), v.counterpartyPhase().toLowerCase(Locale.ROOT),
            v.reservation().isEmpty() ? "-" : v.reservation()));
      }
      Output.table(out, List.of("slot (UTC)", "block", "side", "with", "price (credit)", "here", "there", "reservation"), rows);
      out.println("a contract 'cleared' here waits for this site's acknowledgement: coalition contracts acknowledge ID (ids: --json)");
    }
  }

  /** A command about one contract, named by its id. */
  abstract static class OneContract extends ClientCommands.Reader<ContractView> {
    @Parameters(paramLabel = "ID", description = "The contract's id, as coalition contracts list --json shows it.")
    String id;

    OneContract() {
      super(ContractView.class);
    }
  }

  @Command(name = "show", mixinStandardHelpOptions = true,
      description = "One contract: its slot and block, the parties, the price and the holding fee, what each party says of it, the reservation.")
  static final class Show extends OneContract {
    @Override
    JsonNode fetch(URI base) throws Exception {
      return ApiClient.get(base, "v1/contracts/" + URLEncoder.encode(id, StandardCharsets.UTF_8), target.readToken());
    }

    @Override
    void print(PrintWriter out, ContractView v) {
      boolean buy = v.side().equals("buy");
      Output.table(out, List.of("contract", v.id()), List.of(
          List.of("slot (UTC)", v.slotStart() + " - " + v.slotEnd()),
          List.of("block", v.blockType()),
          List.of(buy ? "bought from" : "sold to", v.counterparty()),
          List.of("price (credit)", Output.number(v.price(), 0)),
          List.of("holding fee (credit)", Output.number(v.holdingFee(), 0) + ", paid by the buyer when the slot opens"),
          List.of("this site says", v.phase().toLowerCase(Locale.ROOT)),
          List.of(v.counterparty() + " says", v.counterpartyPhase().toLowerCase(Locale.ROOT)),
          List.of("reservation", v.reservation().isEmpty() ? "- (the seller names it when the slot opens)" : v.reservation())));
    }
  }

  @Command(name = "acknowledge", mixinStandardHelpOptions = true,
      description = "Acknowledge a contract held for the admin's approval, before its slot opens; needs the operator token.")
  static final class Acknowledge extends OneContract {
    @Option(names = "--token-file", paramLabel = "FILE", description = "The operator token (default: http.operator-token-file of --config).")
    Path tokenFile;

    @Override
    JsonNode fetch(URI base) throws Exception {
      return ApiClient.post(base, "v1/contracts/" + URLEncoder.encode(id, StandardCharsets.UTF_8) + "/acknowledge",
          target.operatorTokenFile(tokenFile));
    }

    @Override
    void print(PrintWriter out, ContractView v) {
      out.println("contract " + v.id() + ": " + v.side() + "s a block of " + v.blockType() + " " + (v.side().equals("buy") ? "from " : "to ")
          + v.counterparty() + " for " + v.slotStart() + " - " + v.slotEnd() + " at " + Output.number(v.price(), 0) + " credit; this site "
          + v.phase().toLowerCase(Locale.ROOT) + ", " + v.counterparty() + " " + v.counterpartyPhase().toLowerCase(Locale.ROOT));
    }
  }
}
